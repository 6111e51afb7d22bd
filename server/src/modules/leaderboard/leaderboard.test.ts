import { describe, expect, it } from 'vitest';
import { makeTeam, removeTeamRow, setTeam } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { scenario } from '../../../test/fixtures.js';

const BOARD = '/api/info/leaderboard';
const COMPLETIONS = '/api/info/get-completions';
const OWN_COMPLETIONS = '/api/info/completions';

for (const kind of testDatabaseKinds()) {
  describe(`leaderboard and completions on ${kind}`, () => {
    it('ranks teams and teamless users by points; a team counts a challenge once', async () => {
      const t = await scenario({
        kind,
        users: ['ann', 'bob', 'cat'],
        teams: { Red: ['ann', 'bob'] },
        challenges: { simple: 'Simple', easy: 'Easy', medium: 'Medium' },
        solves: [
          ['ann', 'easy'],
          ['bob', 'easy'],
          ['bob', 'simple'],
          ['cat', 'medium'],
        ],
      });
      expect(await t.board()).toEqual([
        { name: 'cat', points: 200 },
        { name: 'Red', points: 150 },
      ]);
    });

    it('is public, and visitors get the same list', async () => {
      const t = await scenario({ kind, users: ['ann'], challenges: { c: 'Hard' }, solves: [['ann', 'c']] });
      const res = await t.visitor().get(BOARD);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([{ name: 'ann', points: 300 }]);
      expect((await (await t.login('bob')).get(BOARD)).text).toBe(res.text);
    });

    it('breaks ties by who reached the score first, then by name', async () => {
      const t = await scenario({
        kind,
        users: ['zed', 'amy', 'max'],
        challenges: { a: 'Easy', b: 'Easy', c: 'Easy' },
        solves: [
          ['zed', 'a'],
          ['amy', 'b'],
          ['max', 'c'],
        ],
      });
      expect((await t.board()).map((e) => e.name)).toEqual(['zed', 'amy', 'max']);
      // Same points and the same instant: by name.
      await t.ctx.database.db.updateTable('solves').set({ created_at: '2026-01-10T12:00:00.000Z' }).execute();
      t.ctx.bus.publish('solves');
      expect((await t.board()).map((e) => e.name)).toEqual(['amy', 'max', 'zed']);
    });

    it('counts a team tie from its first solve of each challenge, not a later duplicate', async () => {
      const t = await scenario({
        kind,
        users: ['ann', 'bob', 'cat'],
        teams: { Red: ['ann', 'bob'] },
        challenges: { a: 'Easy', b: 'Easy' },
        solves: [
          ['ann', 'a'],
          ['cat', 'b'],
          ['bob', 'a'], // later, but the team already had it
        ],
      });
      expect(await t.board()).toEqual([
        { name: 'Red', points: 100 },
        { name: 'cat', points: 100 },
      ]);
    });

    it('never moves solves: joining brings nothing, leaving takes nothing', async () => {
      const t = await scenario({
        kind,
        users: ['ann', 'bob'],
        teams: { Red: ['bob'] },
        challenges: { s1: 'Simple', s2: 'Easy', s3: 'Hard' },
        solves: [
          ['ann', 's1'], // solo
          ['bob', 's3'], // for Red
        ],
      });
      const { ann } = t.users;
      await setTeam(t, ann.user!.id, t.teams.Red); // ann joins Red
      expect(await t.board()).toEqual([{ name: 'Red', points: 300 }]);
      await t.solve(ann, t.challenges.s2); // for Red
      expect(await t.board()).toEqual([{ name: 'Red', points: 400 }]);
      await setTeam(t, ann.user!.id, null); // ann leaves: Red keeps her Easy; she has her Simple again
      expect(await t.board()).toEqual([
        { name: 'Red', points: 400 },
        { name: 'ann', points: 50 },
      ]);
    });

    it('counts the solves of a removed team for nobody', async () => {
      const t = await scenario({
        kind,
        users: ['ann'],
        teams: { Red: ['ann'] },
        challenges: { c1: 'Hard', c2: 'Simple' },
        solves: [['ann', 'c1']],
      });
      expect(await t.board()).toEqual([{ name: 'Red', points: 300 }]);
      await removeTeamRow(t, t.teams.Red);
      expect(await t.board()).toEqual([]);
      await t.solve(t.users.ann, t.challenges.c2);
      expect(await t.board()).toEqual([{ name: 'ann', points: 50 }]);
      // A new team never inherits the old team's id, so never its solves.
      await makeTeam(t, 'Blue', [(await t.login('bob')).user!.id]);
      expect(await t.board()).toEqual([{ name: 'ann', points: 50 }]);
    });

    it('recomputes when a user is removed: their solves are gone', async () => {
      const t = await scenario({
        kind,
        users: ['ann', 'bob'],
        teams: { Red: ['ann', 'bob'] },
        challenges: { c1: 'Easy', c2: 'Medium' },
        solves: [
          ['ann', 'c1'],
          ['bob', 'c1'],
          ['bob', 'c2'],
        ],
      });
      expect(await t.board()).toEqual([{ name: 'Red', points: 300 }]);
      await t.ctx.database.db.deleteFrom('users').where('id', '=', t.userId('bob')).execute();
      t.ctx.bus.publish('users');
      // Challenge 1 now credits ann's solve; challenge 2 is gone.
      expect(await t.board()).toEqual([{ name: 'Red', points: 100 }]);
    });

    it('leaves admins out, and their solves count nowhere', async () => {
      const t = await scenario({
        kind,
        admins: ['root', 'op'],
        users: ['bob'],
        teams: { Red: ['bob', 'op'] },
        challenges: { c1: 'Extreme', c2: 'Simple' },
        solves: [
          ['root', 'c1'],
          ['op', 'c1'],
        ],
      });
      expect(await t.board()).toEqual([]);
      await t.solve(t.users.bob, t.challenges.c2);
      expect(await t.board()).toEqual([{ name: 'Red', points: 50 }]);
    });

    it('revalidates with an ETag and shows a solve on the next read', async () => {
      const t = await scenario({ kind, challenges: { c: 'Easy' } });
      const visitor = t.visitor();
      const first = await visitor.get(BOARD);
      expect(first.body).toEqual([]);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const same = await visitor.get(BOARD, { 'if-none-match': etag });
      expect(same.status).toBe(304);
      expect(same.text).toBe('');
      await t.solve(await t.login('ann'), t.challenges.c);
      const after = await visitor.get(BOARD, { 'if-none-match': etag });
      expect(after.status).toBe(200);
      expect(after.body).toEqual([{ name: 'ann', points: 100 }]);
    });

    it('follows a team rename and a difficulty change', async () => {
      const t = await scenario({
        kind,
        users: ['ann'],
        teams: { Red: ['ann'] },
        challenges: { c: 'Easy' },
        solves: [['ann', 'c']],
      });
      const { c } = t.challenges;
      await t.ctx.database.db
        .updateTable('teams')
        .set({ name: 'Crimson', name_key: 'crimson' })
        .where('id', '=', t.teams.Red)
        .execute();
      t.ctx.bus.publish('teams');
      expect(await t.board()).toEqual([{ name: 'Crimson', points: 100 }]);
      const { updateChallenge } = await import('../challenges/challenges.service.js');
      await updateChallenge(t.ctx, c.id, {
        name: c.name,
        description: '',
        category: 'General',
        difficulty: 'Extreme',
        written_by: 'x',
        flag: c.flag,
        files: [],
      });
      expect(await t.board()).toEqual([{ name: 'Crimson', points: 400 }]);
    });

    describe('POST /api/info/get-completions', () => {
      it("answers the caller's own completions whatever the body holds", async () => {
        const t = await scenario({
          kind,
          users: ['ann', 'bob'],
          challenges: { c1: 'Simple', c2: 'Easy', c3: 'Medium' },
        });
        const { ann, bob } = t.users;
        const { c1, c2, c3 } = t.challenges;
        const root = await t.login('root', { admin: true });
        await t.solve(ann, c1); // solo, before joining: hers only
        const red = await makeTeam(t, 'Red', [bob.user!.id, root.user!.id]);
        await t.solve(root, c3); // an admin's solve counts nowhere
        await setTeam(t, ann.user!.id, red);
        await t.solve(bob, c2);
        const annTime = t.clock.now().toISOString();
        await t.solve(ann, c2); // the team already had it: credited to bob
        const bobTime = new Date(t.clock.now().getTime() - 60_000).toISOString();

        const lie = [{ id: '1', name: 'fake', time: 'x', memberName: 'x', points: 999 }];
        const res = await ann.post(COMPLETIONS, { userCompletions: lie, teamCompletions: lie });
        expect(res.status).toBe(200);
        expect(res.body.userCompletions).toEqual([
          { id: String(c1.id), name: c1.name, time: expect.any(String) },
          { id: String(c2.id), name: c2.name, time: new Date(Date.parse(annTime) + 60_000).toISOString() },
        ]);
        expect(res.body.teamCompletions).toEqual([
          { id: String(c2.id), memberName: 'bob', points: 100, name: c2.name, time: bobTime },
        ]);
        // The answer does not depend on the body at all.
        expect((await ann.post(COMPLETIONS, {})).body).toEqual(res.body);
        expect((await ann.post(COMPLETIONS)).body).toEqual(res.body);
        // GET /api/info/completions answers the same bytes, under the same validator.
        const asGet = await ann.get(OWN_COMPLETIONS);
        expect(asGet.status).toBe(200);
        expect(asGet.body).toEqual(res.body);
        expect(asGet.headers.etag).toBe(res.headers.etag);
        expect(asGet.headers['cache-control']).toBe('private, no-cache');
      });

      it('answers an empty team list for a teamless user', async () => {
        const t = await scenario({ kind, users: ['ann'], challenges: { c: 'Easy' }, solves: [['ann', 'c']] });
        const res = await t.users.ann.post(COMPLETIONS, { userCompletions: [], teamCompletions: [] });
        expect(res.body.teamCompletions).toEqual([]);
        expect(res.body.userCompletions).toHaveLength(1);
      });

      it('needs a login', async () => {
        const t = await scenario({ kind });
        expect((await t.visitor().post(COMPLETIONS, {})).status).toBe(401);
        expect((await t.visitor().get(OWN_COMPLETIONS)).status).toBe(401);
      });

      it('validates the body', async () => {
        const t = await scenario({ kind, users: ['ann'] });
        for (const body of [{ userCompletions: 'all' }, { teamCompletions: 5 }, [1, 2]]) {
          const res = await t.users.ann.post(COMPLETIONS, body);
          expect(res.status).toBe(400);
          expect(res.body.code).toBe('bad_input');
        }
      });
    });
  });
}
