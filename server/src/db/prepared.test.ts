import { describe, expect, it } from 'vitest';
import { connectedDatabaseEach, testDatabaseKinds } from '../../test/databases.js';
import { prepared } from './prepared.js';

for (const kind of testDatabaseKinds()) {
  describe(`prepared queries on ${kind}`, () => {
    const handle = connectedDatabaseEach(kind);

    const AT = '2026-01-01T00:00:00.000Z';
    let builds = 0;
    const insertUser = prepared<{ name: string; key: string }, { id: number }>((db, bind) => {
      builds += 1;
      return db
        .insertInto('users')
        .values({ username: bind('name'), username_key: bind('key'), created_at: AT } as never)
        .returning('id');
    });
    const userByKey = prepared<{ key: string }, { id: number; username: string }>((db, bind) =>
      db
        .selectFrom('users')
        .select(['id', 'username'])
        .where('username_key', '=', bind('key'))
        .where('banned', '=', 0),
    );

    it('binds each run its own values into the SQL built once for the database', async () => {
      builds = 0;
      const a = await insertUser.first(handle().db, { name: 'Alpha', key: 'alpha' });
      const b = await insertUser.first(handle().db, { name: 'Bravo', key: 'bravo' });
      expect(builds).toBe(1);
      expect(a!.id).not.toBe(b!.id);
      expect(await userByKey.first(handle().db, { key: 'bravo' })).toEqual({ id: b!.id, username: 'Bravo' });
      expect(await userByKey.first(handle().db, { key: 'alpha' })).toEqual({ id: a!.id, username: 'Alpha' });
      // A value fixed where the query was built (banned = 0) stays bound: a banned user is not read.
      await handle().db.updateTable('users').set({ banned: 1 }).where('id', '=', a!.id).execute();
      expect(await userByKey.first(handle().db, { key: 'alpha' })).toBeUndefined();
      expect(await userByKey.all(handle().db, { key: 'nobody' })).toEqual([]);
    });

    it('runs inside a transaction with the same SQL, and a rolled-back write is gone', async () => {
      builds = 0;
      await insertUser.run(handle().db, { name: 'Before', key: 'before' });
      await expect(
        handle().transaction(async (trx) => {
          await insertUser.run(trx, { name: 'Inside', key: 'inside' });
          expect(await userByKey.first(trx, { key: 'inside' })).toMatchObject({ username: 'Inside' });
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(builds).toBe(1);
      expect(await userByKey.first(handle().db, { key: 'inside' })).toBeUndefined();
    });

    it('refuses a run without a value it binds', async () => {
      await expect(userByKey.first(handle().db, {} as { key: string })).rejects.toThrow(
        "prepared query: no value for 'key'",
      );
    });
  });
}
