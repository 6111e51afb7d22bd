import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { addChallenge } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { currentSolvePosition, readSolvesSince } from './solve-feed.js';

for (const kind of testDatabaseKinds()) {
  describe(`solve feed on ${kind}`, () => {
    let t: TestApp;
    let userIds: number[];
    let challengeIds: number[];
    beforeAll(async () => {
      t = await buildTestApp(kind);
      userIds = [];
      for (let i = 0; i < 6; i++) userIds.push((await t.login(`feeder${i}`)).user!.id);
      challengeIds = [];
      for (let i = 0; i < 6; i++) challengeIds.push((await addChallenge(t, { name: `feed ${i}` })).id);
    });
    afterAll(async () => {
      await t.close();
    });

    const position = () => currentSolvePosition(t.ctx.database.db, t.ctx.database.dialect);
    const solveCount = async () =>
      Number(
        (
          await t.ctx.database.db
            .selectFrom('solves')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const solveRow = (userId: number, challengeId: number) => ({
      user_id: userId,
      challenge_id: challengeId,
      team_id: null,
      created_at: new Date().toISOString(),
    });
    const insertMany = (pairs: [number, number][]) =>
      t.ctx.database.db
        .insertInto('solves')
        .values(pairs.map(([u, c]) => solveRow(u, c)))
        .execute();

    it('reads new solves in order, and tells a bulk insert and a bulk delete apart from new solves', async () => {
      const start = await position();
      await insertMany(userIds.flatMap((u) => challengeIds.slice(0, 3).map((c): [number, number] => [u, c])));
      const added = await readSolvesSince(t.ctx.database.db, t.ctx.database.dialect, start);
      expect(added.consistent).toBe(true);
      expect(added.solves).toHaveLength(18);
      expect(added.solves.map((s) => s.id)).toEqual([...added.solves.map((s) => s.id)].sort((a, b) => a - b));

      // One statement deleting rows of many ids (a removed challenge): never taken for "nothing new".
      await t.ctx.database.db.deleteFrom('solves').where('challenge_id', '=', challengeIds[0]!).execute();
      const afterDelete = await readSolvesSince(t.ctx.database.db, t.ctx.database.dialect, added.position);
      expect(afterDelete.consistent).toBe(false);

      // From a fresh position, new solves are again consistent.
      const fresh = await position();
      await insertMany([[userIds[0]!, challengeIds[4]!]]);
      const next = await readSolvesSince(t.ctx.database.db, t.ctx.database.dialect, fresh);
      expect(next.consistent).toBe(true);
      expect(next.solves.map((s) => s.challenge_id)).toEqual([challengeIds[4]]);
    });

    if (kind === 'postgres') {
      it('reads a solve that commits after a higher id as new, not as a change', async () => {
        const db = t.ctx.database.db;
        let release!: () => void;
        const held = new Promise<void>((r) => (release = r));
        let inserted!: () => void;
        const insertedEarly = new Promise<void>((r) => (inserted = r));
        // Takes its id first, commits last.
        const late = t.ctx.database.transaction(async (trx) => {
          await trx.insertInto('solves').values(solveRow(userIds[2]!, challengeIds[4]!)).execute();
          inserted();
          await held;
        });
        await insertedEarly;
        const start = await position();
        await insertMany([[userIds[1]!, challengeIds[4]!]]);
        const first = await readSolvesSince(db, t.ctx.database.dialect, start);
        expect(first.consistent).toBe(true);
        expect(first.solves.map((s) => [s.user_id, s.challenge_id])).toEqual([[userIds[1], challengeIds[4]]]);
        release();
        await late;
        const second = await readSolvesSince(db, t.ctx.database.dialect, first.position);
        expect(second.consistent).toBe(true);
        expect(second.solves.map((s) => [s.user_id, s.challenge_id])).toEqual([
          [userIds[2], challengeIds[4]],
        ]);
        // Read once: the next read finds nothing new.
        const third = await readSolvesSince(db, t.ctx.database.dialect, second.position);
        expect(third).toMatchObject({ consistent: true, solves: [] });
        expect(third.position.unseen).not.toContain(second.solves[0]!.id);
      });

      it('keeps the stored count equal to the solves through inserts, deletes and rolled-back writes', async () => {
        await insertMany(userIds.map((u): [number, number] => [u, challengeIds[5]!]));
        await t.ctx.database.db.deleteFrom('solves').where('user_id', 'in', userIds.slice(0, 4)).execute();
        await expect(
          t.ctx.database.transaction(async (trx) => {
            await trx.insertInto('solves').values(solveRow(userIds[5]!, challengeIds[3]!)).execute();
            throw new Error('rolled back');
          }),
        ).rejects.toThrow('rolled back');
        expect((await position()).count).toBe(await solveCount());
        const { rows } = await sql<{ n: string }>`select count(*) as n from solve_count_shards`.execute(
          t.ctx.database.db,
        );
        expect(Number(rows[0]!.n)).toBe(16);
      });
    }
  });
}
