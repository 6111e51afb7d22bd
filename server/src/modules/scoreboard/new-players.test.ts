import { describe, expect, it } from 'vitest';
import { makeTeam, setTeam } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { scenario } from '../../../test/fixtures.js';
import { getScoreView } from './scoreboard.service.js';

for (const kind of testDatabaseKinds()) {
  describe(`players who sign up during the event on ${kind}`, () => {
    it('are added to the kept board at their first solve, which is applied, not rebuilt', async () => {
      const t = await scenario({
        kind,
        users: ['ann'],
        challenges: { c1: 'Simple', c2: 'Easy' },
        solves: [['ann', 'c1']],
      });
      const { c1, c2 } = t.challenges;
      const before = (await getScoreView(t.ctx, { live: true })).board;
      // Two players sign up (the trial sign-in makes their accounts) and play.
      const bob = await t.login('bob');
      const cat = await t.login('cat');
      await t.solve(bob, c2);
      await t.solve(cat, c1);
      const after = (await getScoreView(t.ctx, { live: true })).board;
      expect(after).toBe(before);
      expect(await t.board()).toEqual([
        { name: 'bob', points: 100 },
        { name: 'ann', points: 50 },
        { name: 'cat', points: 50 },
      ]);
    });

    it('a new player who joins a team scores for it (the membership rebuilds the board)', async () => {
      const t = await scenario({ kind, users: ['ann'], challenges: { c1: 'Simple' } });
      const before = (await getScoreView(t.ctx, { live: true })).board;
      const bob = await t.login('bob');
      const red = await makeTeam(t, 'Red', [t.users.ann.user!.id]);
      await setTeam(t, bob.user!.id, red);
      await t.solve(bob, t.challenges.c1);
      expect((await getScoreView(t.ctx, { live: true })).board).not.toBe(before);
      expect(await t.board()).toEqual([{ name: 'Red', points: 50 }]);
    });
  });
}
