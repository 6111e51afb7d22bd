import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { addChallenge, openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { getPublicChallengeList } from './challenges.service.js';

for (const kind of testDatabaseKinds()) {
  describe(`the kept challenge list on ${kind}`, () => {
    let t: TestApp;
    beforeEach(async () => {
      t = await buildTestApp(kind);
      await openSite(t);
    });
    afterEach(async () => {
      await t.close();
    });

    /** Solve counts straight from the table, admins left out. */
    async function storedCounts(): Promise<Record<string, number>> {
      const rows = await t.ctx.database.db
        .selectFrom('challenges')
        .select((eb) => [
          'challenges.id',
          eb
            .selectFrom('solves')
            .innerJoin('users', 'users.id', 'solves.user_id')
            .whereRef('solves.challenge_id', '=', 'challenges.id')
            .where('users.is_admin', '=', 0)
            .select((e) => e.fn.countAll<number>().as('n'))
            .as('n'),
        ])
        .execute();
      return Object.fromEntries(rows.map((r) => [String(r.id), Number(r.n)]));
    }

    async function listedCounts(): Promise<Record<string, number>> {
      const list = JSON.parse((await getPublicChallengeList(t.ctx)).answer.json) as {
        _id: string;
        user_completions: number;
      }[];
      return Object.fromEntries(list.map((c) => [c._id, c.user_completions]));
    }

    it('keeps every solve count equal to the stored solves as solves arrive, late or deleted', async () => {
      const challenges: { id: number }[] = [];
      for (let i = 0; i < 5; i++) challenges.push(await addChallenge(t));
      const users: number[] = [];
      for (let i = 0; i < 8; i++) users.push((await t.login(`p${i}`, { admin: i === 0 })).user!.id);
      const db = t.ctx.database.db;
      let step = 0;
      const add = async (id?: number) => {
        step += 1;
        await db
          .insertInto('solves')
          .values({
            ...(id ? { id } : {}),
            user_id: users[step % users.length]!,
            challenge_id: challenges[(step * 7) % challenges.length]!.id,
            team_id: null,
            created_at: t.clock.now().toISOString(),
          })
          .execute();
      };
      expect(await listedCounts()).toEqual(await storedCounts());
      for (let round = 0; round < 6; round++) {
        if (round === 2) {
          await add(1000);
        } else if (round === 3) {
          await add(990); // committed after 1000 was seen
          if (kind === 'postgres')
            await sql`select setval(pg_get_serial_sequence('solves', 'id'), 1000)`.execute(db);
        } else if (round === 4) {
          const victim = await db.selectFrom('solves').select('id').orderBy('id').executeTakeFirstOrThrow();
          await db.deleteFrom('solves').where('id', '=', victim.id).execute();
          await add();
        } else {
          await add();
          await add();
        }
        t.ctx.bus.publish('solves-added');
        expect(await listedCounts(), `round ${round}`).toEqual(await storedCounts());
      }
    });
  });
}
