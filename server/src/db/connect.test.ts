import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_CACHED_STATEMENT_CHARS, withStatementCache } from './connect.js';

let raw: SQLite.Database;
afterEach(() => raw?.open && raw.close());

function counted(size?: number) {
  raw = new SQLite(':memory:');
  let prepared = 0;
  const prepare = raw.prepare.bind(raw);
  raw.prepare = ((text: string) => {
    prepared += 1;
    return prepare(text);
  }) as typeof raw.prepare;
  const db = new Kysely<{ t: { id: number; v: string } }>({
    dialect: new SqliteDialect({ database: withStatementCache(raw, size) }),
  });
  return { db, prepared: () => prepared };
}

describe('SQLite statement cache', () => {
  it('prepares a query text once and answers every run with current data', async () => {
    const { db, prepared } = counted();
    await sql`create table t (id integer primary key, v text not null)`.execute(db);
    for (let i = 1; i <= 3; i++)
      await db
        .insertInto('t')
        .values({ id: i, v: `v${i}` })
        .execute();
    const before = prepared();
    for (let i = 1; i <= 3; i++) {
      const row = await db.selectFrom('t').select('v').where('id', '=', i).executeTakeFirst();
      expect(row?.v).toBe(`v${i}`);
    }
    expect(prepared() - before).toBe(1);
    await db.updateTable('t').set({ v: 'changed' }).where('id', '=', 2).execute();
    expect((await db.selectFrom('t').select('v').where('id', '=', 2).executeTakeFirst())?.v).toBe('changed');
  });

  it('keeps at most its size of statements, evicting the least recently used', async () => {
    const { db, prepared } = counted(2);
    const q = (n: number) => sql`select ${sql.lit(n)} as n`.execute(db);
    await q(1);
    await q(2);
    await q(1); // 1 is now the most recent
    await q(3); // evicts 2
    const before = prepared();
    await q(1);
    await q(3);
    expect(prepared()).toBe(before);
    await q(2);
    expect(prepared()).toBe(before + 1);
  });

  it('still sees a schema change made after a statement was prepared', async () => {
    const { db } = counted();
    await sql`create table t (id integer primary key, v text not null)`.execute(db);
    await db.insertInto('t').values({ id: 1, v: 'a' }).execute();
    expect(await db.selectFrom('t').selectAll().execute()).toEqual([{ id: 1, v: 'a' }]);
    await sql`alter table t add column w text default 'x'`.execute(db);
    expect(await db.selectFrom('t').selectAll().execute()).toEqual([{ id: 1, v: 'a', w: 'x' }]);
  });

  it('never keeps a long one-off text: it is prepared at each use and evicts nothing', async () => {
    const { db, prepared } = counted(2);
    const short = () => sql`select 1 as n`.execute(db);
    await short();
    const ids = Array.from({ length: MAX_CACHED_STATEMENT_CHARS / 2 }, (_, i) => i);
    const long = async () =>
      (await sql<{ n: number }>`select count(*) as n from (select 1) where 1 in (${sql.join(ids)})`.execute(db))
        .rows[0]!.n;
    const before = prepared();
    expect(await long()).toBe(1);
    expect(await long()).toBe(1);
    expect(prepared() - before).toBe(2);
    await short();
    expect(prepared() - before).toBe(2);
  });
});
