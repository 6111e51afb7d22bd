import { MESSAGES, type Difficulty } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import {
  addChallenge,
  makeTeam,
  openSite,
  removeTeamRow,
  setTeam,
  type SeededChallenge,
} from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';

const BOARD = '/api/info/leaderboard';
const COMPLETIONS = '/api/info/get-completions';

for (const kind of testDatabaseKinds()) {
  describe(`leaderboard and completions on ${kind}`, () => {
    let t: TestApp;
    beforeEach(async () => {
      t = await buildTestApp(kind);
      await openSite(t);
    });
    afterEach(async () => {
      await t.close();
    });

    const board = async () => (await t.visitor().get(BOARD)).body;

    /** Solves through the real call, one minute after the previous solve. */
    async function solve(client: TestClient, c: SeededChallenge): Promise<void> {
      t.clock.advance(60_000);
      const res = await client.post('/api/ctf/submit-flag', { flag: c.flag, challenge_id: c.id });
      expect(res.body.message).toBe(MESSAGES.correctFlag);
    }

    async function challenges(...difficulties: Difficulty[]): Promise<SeededChallenge[]> {
      const list = [];
      for (const difficulty of difficulties) list.push(await addChallenge(t, { difficulty }));
      return list;
    }

    it('ranks teams and teamless users by points; a team counts a challenge once', async () => {
      const [simple, easy, medium] = await challenges('Simple', 'Easy', 'Medium');
      const ann = await t.login('ann');
      const bob = await t.login('bob');
      const cat = await t.login('cat');
      await makeTeam(t, 'Red', [ann.user!.id, bob.user!.id]);
      await solve(ann, easy!);
      await solve(bob, easy!);
      await solve(bob, simple!);
      await solve(cat, medium!);
      expect(await board()).toEqual([
        { name: 'cat', points: 200 },
        { name: 'Red', points: 150 },
      ]);
    });

    it('is public, and visitors get the same list', async () => {
      const [c] = await challenges('Hard');
      await solve(await t.login('ann'), c!);
      const res = await t.visitor().get(BOARD);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([{ name: 'ann', points: 300 }]);
      expect((await (await t.login('bob')).get(BOARD)).text).toBe(res.text);
    });

    it('breaks ties by who reached the score first, then by name', async () => {
      const [a, b, c] = await challenges('Easy', 'Easy', 'Easy');
      const zed = await t.login('zed');
      const amy = await t.login('amy');
      const max = await t.login('max');
      await solve(zed, a!);
      await solve(amy, b!);
      await solve(max, c!);
      expect((await board()).map((e: { name: string }) => e.name)).toEqual(['zed', 'amy', 'max']);
      // Same points and the same instant: by name.
      await t.ctx.database.db.updateTable('solves').set({ created_at: '2026-01-10T12:00:00.000Z' }).execute();
      t.ctx.bus.publish('solves');
      expect((await board()).map((e: { name: string }) => e.name)).toEqual(['amy', 'max', 'zed']);
    });

    it('counts a team tie from its first solve of each challenge, not a later duplicate', async () => {
      const [a, b] = await challenges('Easy', 'Easy');
      const ann = await t.login('ann');
      const bob = await t.login('bob');
      const cat = await t.login('cat');
      await makeTeam(t, 'Red', [ann.user!.id, bob.user!.id]);
      await solve(ann, a!);
      await solve(cat, b!);
      await solve(bob, a!); // later, but the team already had it
      expect(await board()).toEqual([
        { name: 'Red', points: 100 },
        { name: 'cat', points: 100 },
      ]);
    });

    it('never moves solves: joining brings nothing, leaving takes nothing', async () => {
      const [s1, s2, s3] = await challenges('Simple', 'Easy', 'Hard');
      const ann = await t.login('ann');
      const bob = await t.login('bob');
      const red = await makeTeam(t, 'Red', [bob.user!.id]);
      await solve(ann, s1!); // solo
      await solve(bob, s3!); // for Red
      await setTeam(t, ann.user!.id, red); // ann joins Red
      expect(await board()).toEqual([{ name: 'Red', points: 300 }]);
      await solve(ann, s2!); // for Red
      expect(await board()).toEqual([{ name: 'Red', points: 400 }]);
      await setTeam(t, ann.user!.id, null); // ann leaves: Red keeps her Easy; she has her Simple again
      expect(await board()).toEqual([
        { name: 'Red', points: 400 },
        { name: 'ann', points: 50 },
      ]);
    });

    it('counts the solves of a removed team for nobody', async () => {
      const [c1, c2] = await challenges('Hard', 'Simple');
      const ann = await t.login('ann');
      const red = await makeTeam(t, 'Red', [ann.user!.id]);
      await solve(ann, c1!);
      expect(await board()).toEqual([{ name: 'Red', points: 300 }]);
      await removeTeamRow(t, red);
      expect(await board()).toEqual([]);
      await solve(ann, c2!);
      expect(await board()).toEqual([{ name: 'ann', points: 50 }]);
      // A new team never inherits the old team's id, so never its solves.
      await makeTeam(t, 'Blue', [(await t.login('bob')).user!.id]);
      expect(await board()).toEqual([{ name: 'ann', points: 50 }]);
    });

    it('recomputes when a user is removed: their solves are gone', async () => {
      const [c1, c2] = await challenges('Easy', 'Medium');
      const ann = await t.login('ann');
      const bob = await t.login('bob');
      await makeTeam(t, 'Red', [ann.user!.id, bob.user!.id]);
      await solve(ann, c1!);
      await solve(bob, c1!);
      await solve(bob, c2!);
      expect(await board()).toEqual([{ name: 'Red', points: 300 }]);
      await t.ctx.database.db.deleteFrom('users').where('id', '=', bob.user!.id).execute();
      t.ctx.bus.publish('users');
      // Challenge 1 now credits ann's solve; challenge 2 is gone.
      expect(await board()).toEqual([{ name: 'Red', points: 100 }]);
    });

    it('leaves admins out, and their solves count nowhere', async () => {
      const [c1, c2] = await challenges('Extreme', 'Simple');
      const root = await t.login('root', { admin: true });
      const op = await t.login('op', { admin: true });
      const bob = await t.login('bob');
      await makeTeam(t, 'Red', [bob.user!.id, op.user!.id]);
      await solve(root, c1!);
      await solve(op, c1!);
      expect(await board()).toEqual([]);
      await solve(bob, c2!);
      expect(await board()).toEqual([{ name: 'Red', points: 50 }]);
    });

    it('revalidates with an ETag and shows a solve on the next read', async () => {
      const [c] = await challenges('Easy');
      const visitor = t.visitor();
      const first = await visitor.get(BOARD);
      expect(first.body).toEqual([]);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const same = await visitor.get(BOARD, { 'if-none-match': etag });
      expect(same.status).toBe(304);
      expect(same.text).toBe('');
      await solve(await t.login('ann'), c!);
      const after = await visitor.get(BOARD, { 'if-none-match': etag });
      expect(after.status).toBe(200);
      expect(after.body).toEqual([{ name: 'ann', points: 100 }]);
    });

    it('follows a team rename and a difficulty change', async () => {
      const [c] = await challenges('Easy');
      const ann = await t.login('ann');
      const red = await makeTeam(t, 'Red', [ann.user!.id]);
      await solve(ann, c!);
      await t.ctx.database.db
        .updateTable('teams')
        .set({ name: 'Crimson', name_key: 'crimson' })
        .where('id', '=', red)
        .execute();
      t.ctx.bus.publish('teams');
      expect(await board()).toEqual([{ name: 'Crimson', points: 100 }]);
      const { updateChallenge } = await import('../challenges/challenges.service.js');
      await updateChallenge(t.ctx, c!.id, {
        name: c!.name,
        description: '',
        category: 'General',
        difficulty: 'Extreme',
        written_by: 'x',
        flag: c!.flag,
        files: [],
      });
      expect(await board()).toEqual([{ name: 'Crimson', points: 400 }]);
    });

    describe('POST /api/info/get-completions', () => {
      it("answers the caller's own completions whatever the body holds", async () => {
        const [c1, c2, c3] = await challenges('Simple', 'Easy', 'Medium');
        const ann = await t.login('ann');
        const bob = await t.login('bob');
        const root = await t.login('root', { admin: true });
        await solve(ann, c1!); // solo, before joining: hers only
        const red = await makeTeam(t, 'Red', [bob.user!.id, root.user!.id]);
        await solve(root, c3!); // an admin's solve counts nowhere
        await setTeam(t, ann.user!.id, red);
        await solve(bob, c2!);
        const annTime = t.clock.now().toISOString();
        await solve(ann, c2!); // the team already had it: credited to bob
        const bobTime = new Date(t.clock.now().getTime() - 60_000).toISOString();

        const lie = [{ id: '1', name: 'fake', time: 'x', memberName: 'x', points: 999 }];
        const res = await ann.post(COMPLETIONS, { userCompletions: lie, teamCompletions: lie });
        expect(res.status).toBe(200);
        expect(res.body.userCompletions).toEqual([
          { id: String(c1!.id), name: c1!.name, time: expect.any(String) },
          { id: String(c2!.id), name: c2!.name, time: new Date(Date.parse(annTime) + 60_000).toISOString() },
        ]);
        expect(res.body.teamCompletions).toEqual([
          { id: String(c2!.id), memberName: 'bob', points: 100, name: c2!.name, time: bobTime },
        ]);
        // The answer does not depend on the body at all.
        expect((await ann.post(COMPLETIONS, {})).body).toEqual(res.body);
        expect((await ann.post(COMPLETIONS)).body).toEqual(res.body);
      });

      it('answers an empty team list for a teamless user', async () => {
        const [c] = await challenges('Easy');
        const ann = await t.login('ann');
        await solve(ann, c!);
        const res = await ann.post(COMPLETIONS, { userCompletions: [], teamCompletions: [] });
        expect(res.body.teamCompletions).toEqual([]);
        expect(res.body.userCompletions).toHaveLength(1);
      });

      it('needs a login', async () => {
        expect((await t.visitor().post(COMPLETIONS, {})).status).toBe(401);
      });

      it('validates the body', async () => {
        const ann = await t.login('ann');
        for (const body of [{ userCompletions: 'all' }, { teamCompletions: 5 }, [1, 2]]) {
          const res = await ann.post(COMPLETIONS, body);
          expect(res.status).toBe(400);
          expect(res.body.code).toBe('bad_input');
        }
      });
    });
  });
}
