import SQLite from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { findUserBySessionHash } from '../modules/auth/sessions.repo.js';
import { connectedDatabaseEach } from '../../test/databases.js';
import { withStatementCache } from './connect.js';
import { migrateToLatest } from './migrate.js';
import type { Database } from './schema.js';
import { BUSY_TIMEOUT_MS, ServerSqliteDialect } from './sqlite-dialect.js';

let raw: SQLite.Database;
afterEach(() => raw?.open && raw.close());

function open<T>(): Kysely<T> {
  raw = new SQLite(':memory:');
  return new Kysely<T>({ dialect: new ServerSqliteDialect(withStatementCache(raw), raw) });
}

describe('SQLite dialect: bound values planned once', () => {
  it('writes every bound value +?, never a bare parameter the planner would read', () => {
    const db = open<Database>();
    const { sql: text, parameters } = db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select('users.id')
      .where('sessions.token_hash', '=', 'abc')
      .where('users.banned', '=', 0)
      .limit(5)
      .compile();
    expect(parameters).toEqual(['abc', 0, 5]);
    expect(text).toContain('"sessions"."token_hash" = +?');
    expect(text).toContain('limit +?');
    expect(text.replaceAll('+?', '')).not.toContain('?');
  });

  it('compares, matches and limits exactly as a bare parameter does', async () => {
    const db = open<{ t: { id: number; v: string | null; n: number | null } }>();
    await sql`create table t (id integer primary key, v text, n real)`.execute(db);
    await db
      .insertInto('t')
      .values([
        { id: 1, v: 'one', n: 1.5 },
        { id: 2, v: 'two', n: null },
        { id: 3, v: null, n: 3 },
      ])
      .execute();
    const ids = async (q: Promise<{ id: number }[]>) => (await q).map((r) => r.id);
    const t = () => db.selectFrom('t').select('id').orderBy('id');
    expect(await ids(t().where('v', '=', 'two').execute())).toEqual([2]);
    expect(await ids(t().where('n', '>', 1.5).execute())).toEqual([3]);
    expect(await ids(t().where('id', 'in', [1, 3]).execute())).toEqual([1, 3]);
    expect(await ids(t().where('v', 'like', 't%').execute())).toEqual([2]);
    expect(await ids(t().where('v', 'is', null).execute())).toEqual([3]);
    expect(await ids(t().limit(1).offset(1).execute())).toEqual([2]);
    // The column's affinity still applies to the value: '2' finds the integer key 2, as with `?`.
    expect(
      await ids(
        t()
          .where('id', '=', sql<number>`${'2'}`)
          .execute(),
      ),
    ).toEqual([2]);
    const bare = raw.prepare('select id from t where id = ?').all('2');
    expect(bare).toEqual([{ id: 2 }]);
  });

  it('keeps the session lookup on its indexes', async () => {
    const db = open<Database>();
    await migrateToLatest(db as Kysely<unknown>);
    const now = '2026-01-01T00:00:00.000Z';
    const user = await db
      .insertInto('users')
      .values({
        username: 'ada',
        username_key: 'ada',
        email: '',
        avatar_url: '',
        is_admin: 0,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('sessions')
      .values({ token_hash: 'h1', user_id: user.id, expires_at: '2099-01-01T00:00:00.000Z', created_at: now })
      .execute();
    const found = await findUserBySessionHash(db, 'h1', now);
    expect(found?.user.username).toBe('ada');
    expect(await findUserBySessionHash(db, 'h2', now)).toBeNull();

    const lookup = db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .leftJoin('teams', 'teams.id', 'users.team_id')
      .select('users.id')
      .where('sessions.token_hash', '=', 'h1')
      .where('sessions.expires_at', '>', now)
      .compile();
    const plan = (
      raw.prepare(`explain query plan ${lookup.sql}`).all(...(lookup.parameters as never[])) as {
        detail: string;
      }[]
    ).map((r) => r.detail);
    expect(plan[0]).toMatch(/^SEARCH sessions USING INDEX .*\(token_hash=\?\)/);
    expect(plan.slice(1).every((step) => /USING INTEGER PRIMARY KEY/.test(step))).toBe(true);
  });
});

describe("SQLite dialect: another connection's write lock waited for on a timer", () => {
  // A fresh SQLite file for each test, connected as the app connects.
  const database = connectedDatabaseEach('sqlite');

  it('a transaction and a lone write wait while the event loop runs, then both write', async () => {
    const handle = database();
    handle.sqlite!.exec('create table t (v integer)');
    const other = new SQLite(handle.sqlite!.name);
    try {
      // Another writer holds the lock (as the worker does while it writes a chunk of the log).
      other.exec('begin immediate');
      let written = 0;
      const inTransaction = handle
        .transaction(async (trx) => {
          await sql`insert into t (v) values (1)`.execute(trx);
        })
        .then(() => (written += 1));
      const alone = sql`insert into t (v) values (2)`.execute(handle.db).then(() => (written += 1));
      // SQLite's busy handler would sleep on this thread: these timers would not fire until it
      // gave up (5 s, then "database is locked").
      let ticks = 0;
      while (ticks < 10) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        ticks += 1;
      }
      expect(written).toBe(0);
      other.exec('insert into t (v) values (0); commit');
      await Promise.all([inTransaction, alone]);
      expect(handle.sqlite!.prepare('select v from t order by rowid').pluck().all()).toEqual([0, 1, 2]);
    } finally {
      other.close();
    }
  });

  it('answers what a write that is not about the lock throws at once', async () => {
    const handle = database();
    handle.sqlite!.exec('create table t (v integer not null)');
    await expect(sql`insert into t (v) values (null)`.execute(handle.db)).rejects.toThrow(
      'NOT NULL constraint failed',
    );
    // The busy timeout is back for what runs outside the dialect (start-up pragmas, backups).
    expect(handle.sqlite!.pragma('busy_timeout', { simple: true })).toBe(BUSY_TIMEOUT_MS);
  });
});
