import SQLite from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { CompiledQuery, Kysely, PostgresDialect, sql, type SqliteDatabase, type Transaction } from 'kysely';
import type { Config } from '../config.js';
import type { Database, DB } from './schema.js';
import { startSqliteWorker } from './sqlite-worker.js';
import { ServerSqliteDialect, connectionPragmas } from './sqlite-dialect.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: DB;
  dialect: Dialect;
  /** Runs fn in one transaction; on SQLite it begins IMMEDIATE so writers queue instead of failing. */
  transaction<T>(fn: (trx: Transaction<Database> | DB) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** The raw SQLite handle (for data_version polling and online backup); null on PostgreSQL. */
  sqlite: SQLite.Database | null;
  /** A parameterised statement outside Kysely (PostgreSQL NOTIFY); not for application queries. */
  rawQuery(text: string, values: unknown[]): Promise<unknown>;
  /**
   * Runs one write statement off the event loop, in its own transaction, resolving once it is
   * committed: on SQLite by the worker's connection (db/sqlite-worker.ts; the server's own when the
   * worker does not run). Null on PostgreSQL, whose writes run in its own processes already. For
   * bulk writes that no request waits for (the submission log's batches).
   */
  writeInBackground: ((text: string, params: readonly unknown[]) => Promise<void>) | null;
}

/**
 * Opens the configured database. The PostgreSQL driver is imported only when it is used, so a
 * SQLite site does not pay for it at start-up.
 */
export async function connectDatabase(database: Config['database']): Promise<DatabaseHandle> {
  if (database.kind === 'postgres') {
    const { default: pg } = await import('pg');
    // PostgreSQL's BIGINT and COUNT(*) come back as strings by default; our counts fit in a double.
    pg.types.setTypeParser(20, (v) => Number(v));
    pg.types.setTypeParser(1700, (v) => Number(v));
    // A database that stopped answering fails a request after a few seconds (503), not never.
    const pool = new pg.Pool({ connectionString: database.url, max: 20, connectionTimeoutMillis: 3000 });
    // NOTE: an idle client's error (server restart) must not crash the process; the next query retries.
    pool.on('error', () => {});
    // NOTE: nor a checked-out client's: pg emits 'error' on a client whose connection drops while
    // a query runs (the database stopped), and the pool listens only to idle ones, so without this
    // an outage threw an uncaught exception. The query itself fails (503), and the pool drops the
    // client when it is released.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: 'postgres',
      sqlite: null,
      rawQuery: (text, values) => pool.query(text, values),
      writeInBackground: null,
      transaction: (fn) => db.transaction().execute(fn),
      close: () => db.destroy(),
    };
  }

  mkdirSync(path.dirname(database.file), { recursive: true });
  const sqlite = new SQLite(database.file);
  sqlite.pragma('journal_mode = WAL');
  for (const pragma of connectionPragmas(database.synchronous)) sqlite.pragma(pragma);
  // SQLite keeps no statistics by itself; the recommended start-up call gathers what the query
  // planner lacks, quickly (a bounded sample per index), so a bulk import does not leave the
  // leaderboard's plan guessing.
  sqlite.pragma('analysis_limit = 400');
  sqlite.pragma('optimize = 0x10002');
  // Checkpoints run in a worker thread, not inside the commit that fills the log (the module).
  // Off before the worker starts, so a worker that fails even to start turns them back on.
  sqlite.pragma('wal_autocheckpoint = 0');
  const worker = await startSqliteWorker(database.file, database.synchronous, () => {
    if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
  });
  const db = new Kysely<Database>({
    dialect: new ServerSqliteDialect(withStatementCache(sqlite), sqlite),
  });
  return {
    db,
    dialect: 'sqlite',
    sqlite,
    rawQuery: async (text, values) => sqlite.prepare(text).all(...(values as never[])),
    writeInBackground: async (text, params) => {
      if (worker.running) return worker.write(text, params);
      // Through Kysely's connection lock: never inside a transaction another request holds open.
      await db.executeQuery(CompiledQuery.raw(text, [...params]));
    },
    // Kysely's SQLite driver holds one connection behind a mutex; connection() keeps every
    // statement of fn on it, and BEGIN IMMEDIATE takes the write lock up front so another
    // connection's writer (the worker, a process sharing the file) is waited for before the first
    // statement (on a timer: ServerSqliteDialect) instead of failing with SQLITE_BUSY mid-way.
    transaction: (fn) =>
      db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          const result = await fn(conn);
          await sql`commit`.execute(conn);
          return result;
        } catch (err) {
          await sql`rollback`.execute(conn).catch(() => {});
          throw err;
        }
      }),
    // The worker's connection closes first, so the server's, the last one, removes the log.
    close: async () => {
      await worker.stop();
      await db.destroy();
    },
  };
}

/** How many prepared SQLite statements are kept; distinct query texts beyond it evict the oldest. */
export const STATEMENT_CACHE_SIZE = 500;
/**
 * Longer query texts are prepared at each use and not kept: they are one-offs (a long `in (...)`
 * list), and a prepared statement's program grows with its text (~0.5 MB for a 500-row insert),
 * so keeping hundreds of them cost hundreds of MB of memory (bench/NOTES.md, the fourth round).
 */
export const MAX_CACHED_STATEMENT_CHARS = 4096;

/**
 * The SQLite handle Kysely sees, with prepared statements kept by their SQL text. Kysely prepares
 * every query it runs, and preparing cost as much as running the query on the hot reads (the
 * session lookup, a user's solves). A statement is only ever used by one query at a time: Kysely's
 * SQLite driver runs one query at a time on its single connection and never streams here.
 */
export function withStatementCache(sqlite: SQLite.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      if (text.length > MAX_CACHED_STATEMENT_CHARS) return sqlite.prepare(text);
      let statement = statements.get(text);
      if (statement) {
        // Most recently used last, so the first key is the one to evict.
        statements.delete(text);
      } else {
        statement = sqlite.prepare(text);
        if (statements.size >= size) statements.delete(statements.keys().next().value!);
      }
      statements.set(text, statement);
      return statement;
    },
  };
}

/** True when err is a uniqueness violation on either dialect. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** Errors of a database that cannot be reached (or is shutting down), not of the query itself. */
const UNREACHABLE_CODES = new Set([
  ...[
    'ECONNREFUSED',
    'ECONNRESET',
    'ETIMEDOUT',
    'EPIPE',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'ENOTFOUND',
    'EAI_AGAIN',
  ],
  // PostgreSQL: connection exceptions (08*), shutting down or starting (57P01-57P03), too many clients.
  ...['08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03', '53300'],
  // SQLite: still locked after busy_timeout, or the file cannot be read or written.
  ...['SQLITE_BUSY', 'SQLITE_CANTOPEN', 'SQLITE_IOERR'],
]);
const UNREACHABLE_TEXT =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused/i;

/**
 * True when err (or what it wraps) says the database cannot be reached right now: the request
 * answers 503 with a clear message instead of 500 (plugins/errors.ts).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const stack: unknown[] = [err];
  while (stack.length > 0) {
    const e = stack.pop();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const { code, message, cause, errors } = e as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('SQLITE_IOERR')))
      return true;
    if (typeof message === 'string' && UNREACHABLE_TEXT.test(message)) return true;
    stack.push(cause);
    if (Array.isArray(errors)) stack.push(...(errors as unknown[]));
  }
  return false;
}

/** True when err is a foreign-key violation on either dialect (the row referred to is gone). */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/** True when err is a CHECK constraint violation on either dialect. */
export function isCheckViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_CHECK' || code === '23514';
}
