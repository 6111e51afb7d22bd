import { LEADERBOARD_PAGE } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listChallengesForAdmin } from '../modules/challenges/challenges.service.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { seedDemo } from './seed-demo.js';
import { DEMO_EVENT, seedDemoEvent } from './seed-demo-event.js';

const DAY = 24 * 3600 * 1000;

for (const kind of testDatabaseKinds()) {
  // The whole event is made (what `npm run lighthouse` measures), a few seconds of work.
  describe(`demo event seed on ${kind}`, { timeout: 120_000 }, () => {
    let t: TestApp;
    beforeEach(async () => {
      t = await buildTestApp(kind);
    });
    afterEach(async () => {
      await t.close();
    });

    it('makes an event under way of the measured size: 300+ competitors, 2,000+ solves over days, hints, announcements', async () => {
      await seedDemo(t.ctx);
      const made = await seedDemoEvent(t.ctx);
      expect(made.challenges).toBe(DEMO_EVENT.challenges);
      expect(made.competitors).toBeGreaterThanOrEqual(300);
      expect(made.solves).toBeGreaterThanOrEqual(2000);
      expect(made.announcements).toBe(10);

      const player = await t.login('newcomer');
      const board = await player.get(`/api/info/leaderboard?limit=1`);
      expect(board.status).toBe(200);
      expect(Number(board.headers[LEADERBOARD_PAGE.totalHeader.toLowerCase()])).toBe(made.competitors);

      // The top 10's lines have hundreds of steps each, spread over the days before now.
      const graph = await player.get('/api/info/scoreboard/graph?top=10');
      const series = graph.body.series as { name: string; points: { time: string; score: number }[] }[];
      expect(series).toHaveLength(10);
      for (const s of series) expect(s.points.length).toBeGreaterThanOrEqual(100);
      const times = series.flatMap((s) => s.points.map((p) => Date.parse(p.time)));
      const now = t.clock.now().getTime();
      expect(Math.max(...times)).toBeLessThanOrEqual(now);
      expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan((DEMO_EVENT.days - 1) * DAY);

      const list = await player.get('/api/ctf/challenges');
      expect(list.body).toHaveLength(DEMO_EVENT.challenges);
      // One in four of the added challenges has hints, which its page lists.
      const admin = await listChallengesForAdmin(t.ctx);
      const withHints = admin.filter((c) => c.hints.length > 0);
      expect(withHints.length).toBeGreaterThanOrEqual(40);
      const detail = await player.post('/api/ctf/challenge', { challenge_id: withHints[0]!._id });
      expect(detail.body.hints).toHaveLength(withHints[0]!.hints.length);

      expect((await player.get('/api/info/announcements')).body).toHaveLength(10);
      // The event runs now: it started with the first solves and has not ended.
      const site = await player.get('/api/info/site');
      expect(Date.parse(site.body.eventStart)).toBeLessThanOrEqual(Math.min(...times));
      expect(Date.parse(site.body.eventEnd)).toBeGreaterThan(now);
    });
  });
}
