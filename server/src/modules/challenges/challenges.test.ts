import { MESSAGES, type ChallengeInput } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { addChallenge, addFileRow, openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import {
  createChallenge,
  deleteChallenge,
  listChallengesForAdmin,
  listSolversByChallenge,
  toggleChallengeStatus,
  updateChallenge,
} from './challenges.service.js';

const input = (overrides: Partial<ChallengeInput> = {}): ChallengeInput => ({
  name: 'Warm-up',
  description: '<p>Hello</p>',
  category: 'General',
  difficulty: 'Simple',
  written_by: 'Ada',
  flag: 'flag{warm}',
  files: [],
  ...overrides,
});

for (const kind of testDatabaseKinds()) {
  describe(`challenges (admin service) on ${kind}`, () => {
    let t: TestApp;
    beforeEach(async () => {
      t = await buildTestApp(kind);
    });
    afterEach(async () => {
      await t.close();
    });

    it('creates an active challenge with points from its difficulty, whatever the client sent', async () => {
      const { id } = await createChallenge(t.ctx, input({ difficulty: 'Hard', points: 5000 }));
      const [c] = await listChallengesForAdmin(t.ctx);
      expect(c).toEqual({
        _id: String(id),
        name: 'Warm-up',
        description: '<p>Hello</p>',
        category: 'General',
        difficulty: 'Hard',
        written_by: 'Ada',
        flag: 'flag{warm}',
        flags: [{ type: 'static', content: 'flag{warm}' }],
        per_team: false,
        per_team_on_page: false,
        max_attempts: null,
        hints: [],
        release_at: null,
        prerequisites: [],
        points: 300,
        scoring_type: 'static',
        scoring: { type: 'static' },
        instance: null,
        solution: null,
        // Created by the system (a script, a seed): nobody owns it, so admins only.
        owners: [],
        rating: 0,
        is_active: true,
        user_completions: 0,
        hlinks: [],
        first_blood: null,
      });
    });

    it('sanitises the description when saving', async () => {
      await createChallenge(
        t.ctx,
        input({
          description: '<p onclick="x()">Hi<script>alert(1)</script><a href="javascript:alert(1)">x</a></p>',
        }),
      );
      const [c] = await listChallengesForAdmin(t.ctx);
      expect(c!.description).toBe('<p>Hi<a rel="noopener noreferrer">x</a></p>');
    });

    it('attaches stored files by name and refuses an unknown name', async () => {
      await addFileRow(t, 'b.zip');
      await addFileRow(t, 'a.zip');
      const { id } = await createChallenge(t.ctx, input({ files: ['b.zip', 'a.zip', 'b.zip'] }));
      expect((await listChallengesForAdmin(t.ctx))[0]!.hlinks).toEqual(['a.zip', 'b.zip']);
      await expect(
        createChallenge(t.ctx, input({ name: 'Other', files: ['a.zip', 'nope.zip'] })),
      ).rejects.toMatchObject({
        statusCode: 400,
        message: 'Unknown file: nope.zip',
      });
      await expect(updateChallenge(t.ctx, id, input({ files: ['ghost.zip'] }))).rejects.toMatchObject({
        message: 'Unknown file: ghost.zip',
      });
      // A refused write changes nothing.
      const all = await listChallengesForAdmin(t.ctx);
      expect(all.map((c) => [c.name, c.hlinks])).toEqual([['Warm-up', ['a.zip', 'b.zip']]]);
    });

    it('refuses a second challenge of the same name (case-insensitive)', async () => {
      await createChallenge(t.ctx, input());
      await expect(createChallenge(t.ctx, input({ name: 'WARM-UP' }))).rejects.toMatchObject({
        statusCode: 409,
      });
      const other = await createChallenge(t.ctx, input({ name: 'Other' }));
      await expect(updateChallenge(t.ctx, other.id, input({ name: 'warm-up' }))).rejects.toMatchObject({
        statusCode: 409,
      });
      // Keeping its own name is fine.
      await updateChallenge(t.ctx, other.id, input({ name: 'Other', difficulty: 'Medium' }));
    });

    it('updates every field, re-derives points and replaces files; unknown id is 404', async () => {
      await addFileRow(t, 'a.zip');
      await addFileRow(t, 'c.zip');
      const { id } = await createChallenge(t.ctx, input({ files: ['a.zip'] }));
      await updateChallenge(
        t.ctx,
        id,
        input({
          name: 'Renamed',
          description: '<b>bold</b>',
          category: 'Forensics',
          difficulty: 'Extreme',
          written_by: 'Grace',
          flag: 'flag{new}',
          points: 1,
          files: ['c.zip'],
        }),
      );
      expect(await listChallengesForAdmin(t.ctx)).toEqual([
        expect.objectContaining({
          name: 'Renamed',
          description: '<b>bold</b>',
          category: 'Forensics',
          difficulty: 'Extreme',
          written_by: 'Grace',
          flag: 'flag{new}',
          points: 400,
          hlinks: ['c.zip'],
          is_active: true,
        }),
      ]);
      await expect(updateChallenge(t.ctx, id + 100, input({ name: 'X' }))).rejects.toMatchObject({
        statusCode: 404,
      });
    });

    it('toggles the active state and answers the new one; unknown id is 404', async () => {
      const { id } = await createChallenge(t.ctx, input());
      expect(await toggleChallengeStatus(t.ctx, id)).toEqual({ is_active: false });
      expect((await listChallengesForAdmin(t.ctx))[0]!.is_active).toBe(false);
      expect(await toggleChallengeStatus(t.ctx, id)).toEqual({ is_active: true });
      await expect(toggleChallengeStatus(t.ctx, id + 1)).rejects.toMatchObject({ statusCode: 404 });
    });

    it('deletes a challenge with its solves and ratings, and the scores follow', async () => {
      await openSite(t);
      const keep = await addChallenge(t, { difficulty: 'Simple' });
      const gone = await addChallenge(t, { difficulty: 'Hard' });
      const ann = await t.login('ann');
      for (const c of [keep, gone]) {
        expect(
          (await ann.post('/api/ctf/submit-flag', { flag: c.flag, challenge_id: c.id })).body.message,
        ).toBe(MESSAGES.correctFlag);
      }
      await ann.post('/api/ctf/rate-challenge', { challenge_id: gone.id, rating: 5 });
      expect((await t.visitor().get('/api/info/leaderboard')).body).toEqual([{ name: 'ann', points: 350 }]);

      await deleteChallenge(t.ctx, gone.id);
      const db = t.ctx.database.db;
      expect(await db.selectFrom('solves').select('challenge_id').execute()).toEqual([
        { challenge_id: keep.id },
      ]);
      expect(await db.selectFrom('ratings').select('challenge_id').execute()).toEqual([]);
      expect((await t.visitor().get('/api/info/leaderboard')).body).toEqual([{ name: 'ann', points: 50 }]);
      await expect(deleteChallenge(t.ctx, gone.id)).rejects.toMatchObject({ statusCode: 404 });
    });

    it('lists solvers by challenge name in solve order, unsolved challenges with none', async () => {
      await openSite(t);
      const a = await addChallenge(t, { name: 'Alpha' });
      await addChallenge(t, { name: 'Beta' });
      const bob = await t.login('bob');
      const ann = await t.login('ann');
      const root = await t.login('root', { admin: true });
      await bob.post('/api/ctf/submit-flag', { flag: a.flag, challenge_id: a.id });
      t.clock.advance(1000);
      await root.post('/api/ctf/submit-flag', { flag: a.flag, challenge_id: a.id });
      t.clock.advance(1000);
      await ann.post('/api/ctf/submit-flag', { flag: a.flag, challenge_id: a.id });
      expect(await listSolversByChallenge(t.ctx)).toEqual({
        solvers: { Alpha: ['bob', 'root', 'ann'], Beta: [] },
        first_bloods: { Alpha: 'bob' },
      });
    });

    it('every write reaches the public list at once', async () => {
      await openSite(t);
      const visitor = t.visitor();
      expect((await visitor.get('/api/ctf/challenges')).body).toEqual([]);
      const { id } = await createChallenge(t.ctx, input());
      expect((await visitor.get('/api/ctf/challenges')).body.map((c: { name: string }) => c.name)).toEqual([
        'Warm-up',
      ]);
      await updateChallenge(t.ctx, id, input({ name: 'Changed' }));
      expect((await visitor.get('/api/ctf/challenges')).body[0].name).toBe('Changed');
      await toggleChallengeStatus(t.ctx, id);
      expect((await visitor.get('/api/ctf/challenges')).body[0].is_active).toBe(false);
      await deleteChallenge(t.ctx, id);
      expect((await visitor.get('/api/ctf/challenges')).body).toEqual([]);
    });
  });
}
