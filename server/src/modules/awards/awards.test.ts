import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../test/build-test-app.js';
import { setTeam } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { startedEvent, type StartedEvent } from '../../../test/fixtures.js';
import { getScoreView } from '../scoreboard/scoreboard.service.js';

const AWARDS = '/api/admin/awards';
const DELETE = '/api/admin/awards/delete';
const FREEZE = '/api/admin/scoreboard/freeze';
const GRAPH = '/api/info/scoreboard/graph';
const CTFTIME = '/api/ctftime';

for (const kind of testDatabaseKinds()) {
  describe(`awards on ${kind}`, () => {
    let t: StartedEvent<'ann' | 'bob' | 'cat' | 'dan', 'boss', 'easy' | 'medium', 'Red'>;
    beforeEach(async () => {
      t = await startedEvent({
        kind,
        admins: ['boss'],
        users: ['ann', 'bob', 'cat', 'dan'],
        teams: { Red: ['ann', 'bob'] },
        challenges: { easy: 'Easy', medium: 'Medium' },
        solves: [
          ['cat', 'easy'],
          ['ann', 'easy'],
        ],
      });
    });
    afterEach(async () => {
      await t.close();
    });

    const give = async (body: Record<string, unknown>, who: TestClient = t.admin) => {
      t.clock.advance(60_000);
      return who.post(AWARDS, body);
    };
    const auditActions = async () =>
      (
        await t.ctx.database.db
          .selectFrom('audit_log')
          .select(['action', 'target', 'details'])
          .where('action', 'like', 'award.%')
          .orderBy('id')
          .execute()
      ).map((r) => ({ action: r.action, target: r.target, details: JSON.parse(r.details) }));

    it('refuses what is not a whole non-zero number within 100,000, a bad reason, or no recipient', async () => {
      const user_id = t.userId('cat');
      const refused = [
        { user_id, points: 0, reason: 'x' },
        { user_id, points: 1.5, reason: 'x' },
        { user_id, points: 100_001, reason: 'x' },
        { user_id, points: -100_001, reason: 'x' },
        { user_id, points: '10', reason: 'x' },
        { user_id, points: 10, reason: '' },
        { user_id, points: 10, reason: '   ' },
        { user_id, points: 10, reason: 'x'.repeat(201) },
        { points: 10, reason: 'x' },
        { user_id, team_id: t.teams.Red, points: 10, reason: 'x' },
      ];
      for (const body of refused) {
        const res = await give(body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.message).toMatch(/points|reason|user|team|number/i);
      }
      expect((await give({ user_id, points: 0, reason: 'x' })).body.message).toMatch(/must not be 0/);
      expect((await give({ user_id: 99_999, points: 10, reason: 'x' })).status).toBe(404);
      expect((await give({ team_id: 99_999, points: 10, reason: 'x' })).status).toBe(404);
      expect((await give({ user_id, points: 10, reason: 'x' }, t.users.ann)).status).toBe(403);
      expect((await t.users.ann.get(AWARDS)).status).toBe(403);
      expect((await t.users.ann.post(DELETE, { award_id: 1 })).status).toBe(403);
      expect((await t.admin.get(AWARDS)).body).toEqual([]);
      // The limits themselves are accepted.
      expect((await give({ user_id, points: 100_000, reason: 'x'.repeat(200) })).status).toBe(200);
      expect((await give({ user_id, points: -100_000, reason: 'y' })).status).toBe(200);
    });

    it("counts for the user's team at the time, is listed with its reason, and is audited", async () => {
      expect(await t.board()).toEqual([
        { name: 'cat', points: 100 },
        { name: 'Red', points: 100 },
      ]);
      const res = await give({ user_id: t.userId('ann'), points: 50, reason: 'Best writeup' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ _id: expect.any(String) });
      const time = t.clock.now().toISOString();
      expect(await t.board()).toEqual([
        { name: 'Red', points: 150 },
        { name: 'cat', points: 100 },
      ]);
      const award = { points: 50, reason: 'Best writeup', time };
      expect((await t.users.ann.get('/api/user/info')).body.awards).toEqual([award]);
      expect((await t.users.bob.get('/api/user/info')).body.awards).toEqual([]);
      expect((await t.users.bob.get('/api/team/info')).body.awards).toEqual([award]);
      expect((await t.admin.get(AWARDS)).body).toEqual([
        {
          _id: res.body._id,
          user_id: String(t.userId('ann')),
          user: 'ann',
          team_id: String(t.teams.Red),
          team: 'Red',
          ...award,
        },
      ]);
      // A team award, and a penalty to a solo player.
      await give({ team_id: t.teams.Red, points: -20, reason: 'Shared a flag' });
      await give({ user_id: t.userId('cat'), points: -30, reason: 'Attacked the platform' });
      expect(await t.board()).toEqual([
        { name: 'Red', points: 130 },
        { name: 'cat', points: 70 },
      ]);
      expect(
        (await t.users.ann.get('/api/team/info')).body.awards.map((a: { points: number }) => a.points),
      ).toEqual([50, -20]);
      // An award never moves: ann leaves Red, Red keeps it, and ann alone does not get it.
      await setTeam(t, t.userId('ann'), null);
      expect(await t.board()).toEqual([
        { name: 'Red', points: 130 },
        { name: 'cat', points: 70 },
      ]);
      expect((await auditActions()).map((a) => a.action)).toEqual(['award.give', 'award.give', 'award.give']);
      expect((await auditActions())[0]!.details).toEqual({ points: 50, reason: 'Best writeup' });
    });

    it('lists a competitor with awards only; deleting removes it everywhere, audited', async () => {
      const res = await give({ user_id: t.userId('dan'), points: 500, reason: 'Workshop quiz' });
      expect(await t.board()).toEqual([
        { name: 'dan', points: 500 },
        { name: 'cat', points: 100 },
        { name: 'Red', points: 100 },
      ]);
      const exported = (await t.admin.get('/api/admin/export/solves.json')).body;
      expect(exported.at(-1)).toEqual({
        time: t.clock.now().toISOString(),
        user: 'dan',
        team: '',
        challenge: 'Award: Workshop quiz',
        points: 500,
      });
      expect((await t.admin.get('/api/admin/export/scoreboard.json')).body[0]).toMatchObject({
        pos: 1,
        name: 'dan',
        points: 500,
        solves: 0,
      });
      const del = await t.admin.post(DELETE, { award_id: res.body._id });
      expect(del.status).toBe(200);
      expect(await t.board()).toEqual([
        { name: 'cat', points: 100 },
        { name: 'Red', points: 100 },
      ]);
      expect((await t.users.dan.get('/api/user/info')).body.awards).toEqual([]);
      expect((await t.admin.get(AWARDS)).body).toEqual([]);
      expect(JSON.stringify((await t.admin.get('/api/admin/export/solves.json')).body)).not.toContain(
        'Award',
      );
      expect((await t.admin.post(DELETE, { award_id: res.body._id })).status).toBe(404);
      expect((await auditActions()).map((a) => a.action)).toEqual(['award.give', 'award.delete']);
    });

    it('is applied to the kept board like a solve (no rebuild); a deletion rebuilds it', async () => {
      const live = async () => (await getScoreView(t.ctx, { live: true })).board;
      const before = await live();
      const version = before.version;
      const res = await give({ team_id: t.teams.Red, points: 5, reason: 'Quiz' });
      const after = await live();
      expect(after).toBe(before);
      expect(after.version).toBe(version + 1);
      expect(after.ranked.find((c) => c.name === 'Red')?.points).toBe(105);
      await t.admin.post(DELETE, { award_id: res.body._id });
      const rebuilt = await live();
      expect(rebuilt).not.toBe(before);
      expect(rebuilt.ranked.find((c) => c.name === 'Red')?.points).toBe(100);
    });

    it("breaks ties on an award's time as on a solve's", async () => {
      // cat solved first, so cat leads Red at 100 each.
      await give({ team_id: t.teams.Red, points: 50, reason: 'Quiz' });
      await give({ user_id: t.userId('cat'), points: 50, reason: 'Quiz' });
      // 150 each: Red's last scoring moment (its award) came first.
      expect(await t.board()).toEqual([
        { name: 'Red', points: 150 },
        { name: 'cat', points: 150 },
      ]);
    });

    it('is a step of the graph at its time, and counts in the CTFtime feed', async () => {
      await give({ user_id: t.userId('cat'), points: 250, reason: 'Writeup' });
      const at = t.clock.now().toISOString();
      const graph = (await t.visitor().get(GRAPH)).body;
      const cat = graph.series.find((s: { name: string }) => s.name === 'cat');
      expect(cat.points.at(-1)).toEqual({ time: at, score: 350 });
      expect(cat.points).toHaveLength(2);
      const feed = (await t.visitor().get(CTFTIME)).body;
      expect(feed.standings[0]).toMatchObject({
        pos: 1,
        team: 'cat',
        score: 350,
        lastAccept: Math.floor(Date.parse(at) / 1000),
      });
      expect(Object.keys(feed.standings[0].taskStats)).toHaveLength(1);
    });

    it('stays hidden from the public after the freeze until it lifts', async () => {
      await t.admin.post(FREEZE, { freeze_at: t.clock.now().toISOString() });
      const before = {
        board: await t.board(),
        graph: (await t.visitor().get(GRAPH)).body,
        ctftime: (await t.visitor().get(CTFTIME)).text,
      };
      await give({ user_id: t.userId('cat'), points: 1000, reason: 'Late bonus' });
      expect(await t.board()).toEqual(before.board);
      expect(await t.board(t.users.ann)).toEqual(before.board);
      expect((await t.visitor().get(GRAPH)).body).toEqual(before.graph);
      expect((await t.visitor().get(CTFTIME)).text).toBe(before.ctftime);
      // Organisers see it on the live board and in the exports.
      expect((await t.admin.get('/api/admin/export/scoreboard.json')).body[0]).toMatchObject({
        name: 'cat',
        points: 1100,
      });
      await t.admin.post(FREEZE, { freeze_at: null });
      expect((await t.board())[0]).toEqual({ name: 'cat', points: 1100 });
    });

    it("counts on its competitor's division board", async () => {
      await t.admin.post('/api/admin/divisions', { divisions: [{ name: 'Open' }, { name: 'Junior' }] });
      const picked = await t.users.dan.post('/api/user/division', { division: 'Junior' });
      expect(picked.status).toBe(200);
      await give({ user_id: t.userId('dan'), points: 40, reason: 'Quiz' });
      const junior = (await t.visitor().get('/api/info/leaderboard?division=Junior')).body;
      expect(junior).toContainEqual({ name: 'dan', points: 40, division: 'Junior' });
      const open = (await t.visitor().get('/api/info/leaderboard?division=Open')).body;
      expect(open.map((e: { name: string }) => e.name)).not.toContain('dan');
      const graph = (await t.visitor().get(`${GRAPH}?division=Junior`)).body;
      expect(graph.series.map((s: { name: string }) => s.name)).toContain('dan');
    });

    it("is removed with its user; a removed team's awards count for nobody", async () => {
      await give({ user_id: t.userId('cat'), points: 10, reason: 'Quiz' });
      await give({ team_id: t.teams.Red, points: 10, reason: 'Quiz' });
      expect((await t.admin.post('/api/admin/remove_user', { user_id: t.userId('cat') })).status).toBe(200);
      expect((await t.admin.post('/api/admin/remove_team', { team_id: t.teams.Red })).status).toBe(200);
      expect(await t.board()).toEqual([]);
      const list = (await t.admin.get(AWARDS)).body;
      expect(list).toEqual([expect.objectContaining({ user_id: null, team: null, points: 10 })]);
    });
  });
}
