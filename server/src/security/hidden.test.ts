import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../test/build-test-app.js';
import { addChallenge, makeTeam, openSite } from '../../test/compete.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { FakeDiscord } from '../../test/fake-discord.js';
import { openEventStream, type SseClient } from '../../test/sse-client.js';

/**
 * Issue 29, reproduction 8: hidden or banned teams stayed in GET /api/team/list; a hidden team's
 * first blood and a deleted announcement's title replayed on the stream for 10 minutes to anyone
 * resuming from `Last-Event-ID: 0`; a Discord message queued for an announcement was still sent
 * after the announcement was deleted.
 */

const fake = new FakeDiscord();
beforeAll(() => fake.start());
afterAll(() => fake.stop());

const until = (check: () => void | Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 20 });

for (const kind of testDatabaseKinds()) {
  describe(`hidden is hidden everywhere on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;
    let base: string;
    const streams: SseClient[] = [];
    beforeEach(async () => {
      // Discord fails every message until told otherwise: what is queued stays queued.
      fake.reset(Array.from({ length: 10_000 }, () => 500 as const));
      t = await buildTestApp(kind, { DISCORD_WEBHOOK_URL: fake.url, WEBHOOK_EVENTS: 'announcements,first-blood' });
      admin = await t.login('boss', { admin: true });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      await openSite(t);
    });
    afterEach(async () => {
      for (const s of streams.splice(0)) s.close();
      await t.close();
    });

    const moderate = (target: 'user' | 'team', name: string, action: 'hide' | 'ban') =>
      admin.post('/api/admin/moderate', { target, name, action, reason: 'test' });
    /** Everything the stream replays from the start of its window. */
    async function replay(): Promise<SseClient> {
      const s = await openEventStream(base, { 'last-event-id': '0' });
      streams.push(s);
      return s;
    }

    it('leaves hidden and banned teams out of the team list and the leaderboard', async () => {
      const [a, b, c] = await Promise.all(['ann', 'ben', 'cat'].map((n) => t.login(n)));
      await makeTeam(t, 'Visible', [a!.user!.id]);
      await makeTeam(t, 'Hidden', [b!.user!.id]);
      await makeTeam(t, 'Banned', [c!.user!.id]);
      const ch = await addChallenge(t, { name: 'Warmup' });
      for (const client of [a!, b!, c!])
        expect((await client.post('/api/ctf/submit-flag', { challenge_id: ch.id, flag: ch.flag })).status).toBe(200);
      expect((await moderate('team', 'Hidden', 'hide')).status).toBe(200);
      expect((await moderate('team', 'Banned', 'ban')).status).toBe(200);
      const seeker = await t.login('seeker');
      const list = (await seeker.get('/api/team/list')).body as { name: string }[];
      expect(list.map((e) => e.name)).toEqual(['Visible']);
      const board = (await t.visitor().get('/api/info/leaderboard')).body as { name: string }[];
      expect(board.map((e) => e.name)).toEqual(['Visible']);
    });

    it("never replays a hidden or banned competitor's first blood", async () => {
      const [h, s] = await Promise.all([t.login('hider'), t.login('solo')]);
      await makeTeam(t, 'Shadows', [h.user!.id]);
      const one = await addChallenge(t, { name: 'One' });
      const two = await addChallenge(t, { name: 'Two' });
      await h.post('/api/ctf/submit-flag', { challenge_id: one.id, flag: one.flag });
      await s.post('/api/ctf/submit-flag', { challenge_id: two.id, flag: two.flag });
      const before = await replay();
      await until(() => expect(before.events.filter((e) => e.event === 'first-blood')).toHaveLength(2));
      expect((await moderate('team', 'Shadows', 'hide')).status).toBe(200);
      expect((await moderate('user', 'solo', 'ban')).status).toBe(200);
      const after = await replay();
      // Whatever else replays (the site switch), no first blood of either does.
      await until(() => expect(after.events.length).toBeGreaterThan(0));
      expect(after.events.filter((e) => e.event === 'first-blood')).toEqual([]);
    });

    it("withdraws a deleted announcement: no replay of its title, and its queued Discord message is not sent", async () => {
      const posted = await admin.post('/api/admin/announcements/create', { title: 'Secret prize', body: 'x' });
      const status = async () => (await admin.get('/api/admin/webhook/status')).body.pending as number;
      await until(async () => expect(await status()).toBe(1));
      await until(() => expect(fake.requests).toBeGreaterThan(0));
      const before = await replay();
      await until(() => expect(before.events.map((e) => e.event)).toContain('announcement'));

      expect((await admin.post('/api/admin/announcements/delete', { _id: posted.body._id })).status).toBe(200);
      expect(await status()).toBe(0);
      const after = await replay();
      await until(() =>
        expect(after.events).toContainEqual(
          expect.objectContaining({ event: 'announcement', data: { _id: posted.body._id, title: '', change: 'deleted' } }),
        ),
      );
      expect(JSON.stringify(after.events)).not.toContain('Secret prize');
      expect(fake.delivered).toEqual([]);
    });
  });
}
