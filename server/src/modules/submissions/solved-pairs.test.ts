import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { addChallenge } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { hasSolvedChallenge, recordSolvedPair } from './solved-pairs.js';

for (const kind of testDatabaseKinds()) {
  describe(`the in-memory solved check on ${kind}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp(kind);
    });
    afterAll(async () => {
      await t.close();
    });

    const solve = (userId: number, challengeId: number) =>
      t.ctx.database.db
        .insertInto('solves')
        .values({
          user_id: userId,
          challenge_id: challengeId,
          team_id: null,
          created_at: new Date().toISOString(),
        })
        .execute();

    /** The check does not wait for the feed: asked again, it answers what the read it started found. */
    async function settlesTo(userId: number, challengeId: number, expected: boolean): Promise<boolean> {
      const deadline = Date.now() + 2000;
      let seen = await hasSolvedChallenge(t.ctx, userId, challengeId);
      while (seen !== expected && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 5));
        seen = await hasSolvedChallenge(t.ctx, userId, challengeId);
      }
      return seen;
    }

    it('knows its own solves at once, others after the feed is read, and forgets a removed user', async () => {
      const a = (await t.login('pairs-a')).user!.id;
      const b = (await t.login('pairs-b')).user!.id;
      const c1 = (await addChallenge(t, { name: 'pairs 1' })).id;
      const c2 = (await addChallenge(t, { name: 'pairs 2' })).id;
      await solve(a, c1);
      // Built from the stored solves.
      expect(await hasSolvedChallenge(t.ctx, a, c1)).toBe(true);
      expect(await hasSolvedChallenge(t.ctx, a, c2)).toBe(false);
      expect(await hasSolvedChallenge(t.ctx, b, c1)).toBe(false);

      // Recorded by this process: known at the very next check.
      await solve(b, c2);
      recordSolvedPair(t.ctx, b, c2);
      expect(await hasSolvedChallenge(t.ctx, b, c2)).toBe(true);

      // Recorded elsewhere and published as a new solve: applied from the feed.
      await solve(b, c1);
      t.ctx.bus.publish('solves-added');
      expect(await settlesTo(b, c1, true)).toBe(true);
      expect(await settlesTo(a, c2, false)).toBe(false);

      // A deletion announced only as an addition is still noticed by the feed.
      await t.ctx.database.db.deleteFrom('solves').where('user_id', '=', b).execute();
      await solve(a, c2);
      t.ctx.bus.publish('solves-added');
      expect(await settlesTo(b, c1, false)).toBe(false);
      expect(await settlesTo(a, c2, true)).toBe(true);

      // A removed user's solves go with it ('users').
      await t.ctx.database.db.deleteFrom('users').where('id', '=', a).execute();
      t.ctx.bus.publish('users');
      expect(await settlesTo(a, c1, false)).toBe(false);
    });

    it('answers not solved for ids it cannot key, without failing', async () => {
      expect(await hasSolvedChallenge(t.ctx, -1, 1)).toBe(false);
      expect(await hasSolvedChallenge(t.ctx, 1, 2 ** 40)).toBe(false);
    });
  });
}
