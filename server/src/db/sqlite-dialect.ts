import type SQLite from 'better-sqlite3';
import {
  SqliteDialect,
  SqliteDriver,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type SqliteDatabase,
} from 'kysely';

/** How long a statement waits for another connection's write lock before it fails (SQLITE_BUSY). */
export const BUSY_TIMEOUT_MS = 5000;
/** The longest pause between two tries of a write that found the lock taken. */
const MAX_BUSY_PAUSE_MS = 8;

/**
 * Each connection's page cache, in KiB. better-sqlite3 builds SQLite with 16 MB a connection, a
 * copy of pages the operating system's file cache holds anyway (a page that misses is read from
 * there in a few µs while the file is cached): the worker's batches of the submission log alone
 * filled its 16 MB, and the memory stayed with the process (bench/NOTES.md).
 */
export const PAGE_CACHE_KIB = 2048;

/**
 * How every connection of the server to its SQLite file is set up: the server's own and the
 * worker's (sqlite-worker.ts) alike, so the worker's writes are as durable and as checked.
 */
export function connectionPragmas(synchronous: string): readonly string[] {
  return [
    `synchronous = ${synchronous}`,
    'foreign_keys = ON',
    `busy_timeout = ${BUSY_TIMEOUT_MS}`,
    `cache_size = -${PAGE_CACHE_KIB}`,
  ];
}

/**
 * Kysely's SQLite dialect for the server's connection, with two changes:
 *
 * - Every bound value is written `+?` instead of `?`. SQLite's query planner may look at a bound
 *   value while it plans (its query planner stability guarantee is off by default): in a join, an
 *   `= ?` term it only filters by is weighed by the value bound to it, and the statement is marked
 *   to be planned again whenever that parameter is bound anew. better-sqlite3 binds at every run,
 *   so every run of such a statement re-prepared it: the session lookup (sessions, users and teams
 *   joined) cost ~60 µs instead of ~5, and a join by an id ~8 µs instead of ~1 (bench/NOTES.md).
 *   The planner reads a value only from a bare parameter; unary plus is SQLite's no-op operator
 *   (same value, no affinity, as a bare parameter has none), so `col = +?` means what `col = ?`
 *   does, still searches the column's index, and plans once. The connection cannot switch the
 *   guarantee on (better-sqlite3 does not expose sqlite3_db_config), so the placeholders carry it.
 * - A write that finds another connection holding the write lock (the SQLite worker writing the
 *   submission log, another process on the same file) waits on a timer, not in SQLite's busy
 *   handler, which sleeps in the calling thread: the event loop, every request with it. This holds
 *   for a statement outside a transaction and for the BEGIN IMMEDIATE that opens one (which then
 *   holds the lock to its end); inside a transaction the busy handler stays, as before.
 */
export class ServerSqliteDialect extends SqliteDialect {
  constructor(
    private readonly database: SqliteDatabase,
    private readonly raw: SQLite.Database,
  ) {
    super({ database });
  }

  override createDriver(): Driver {
    return new YieldingSqliteDriver(this.database, this.raw);
  }

  override createQueryCompiler(): QueryCompiler {
    return new PlannedOnceQueryCompiler();
  }
}

class PlannedOnceQueryCompiler extends SqliteQueryCompiler {
  protected override getCurrentParameterPlaceholder(): string {
    return '+?';
  }
}

/** Kysely's driver (one connection behind its lock), answering with a connection that yields. */
class YieldingSqliteDriver extends SqliteDriver {
  private readonly connection: YieldingSqliteConnection;

  constructor(database: SqliteDatabase, raw: SQLite.Database) {
    super({ database });
    this.connection = new YieldingSqliteConnection(database, raw);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    // Takes the single connection's lock, as Kysely's own does.
    await super.acquireConnection();
    return this.connection;
  }
}

function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

class YieldingSqliteConnection implements DatabaseConnection {
  constructor(
    private readonly database: SqliteDatabase,
    private readonly raw: SQLite.Database,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // The cache's statements are better-sqlite3's (Kysely's type names only what it calls).
    const statement = this.database.prepare(compiled.sql) as unknown as SQLite.Statement;
    const parameters = compiled.parameters;
    const execute = (): QueryResult<R> => {
      if (statement.reader) return { rows: statement.all(parameters) as R[] };
      const { changes, lastInsertRowid } = statement.run(parameters);
      return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
    };
    // A read never waits for the write lock (WAL), and a transaction's statements run under the
    // lock its BEGIN IMMEDIATE took. (BEGIN itself counts as read-only, but returns no rows.)
    if ((statement.reader && statement.readonly) || this.raw.inTransaction) return execute();
    return this.runWhenUnlocked(execute);
  }

  /**
   * Runs a write with no busy handler; while another connection holds the lock, tries again after
   * a pause (1, 2, 4, then 8 ms), until the busy timeout. NOTE: `exec`, not a kept statement: a
   * busy_timeout pragma takes effect when it is prepared, not when it runs (~0.9 µs each).
   */
  private async runWhenUnlocked<T>(run: () => T): Promise<T> {
    const deadline = Date.now() + BUSY_TIMEOUT_MS;
    for (let pause = 1; ; pause = Math.min(pause * 2, MAX_BUSY_PAUSE_MS)) {
      this.raw.exec('pragma busy_timeout = 0');
      try {
        return run();
      } catch (err) {
        if (!isBusy(err) || Date.now() >= deadline) throw err;
      } finally {
        this.raw.exec(`pragma busy_timeout = ${BUSY_TIMEOUT_MS}`);
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  streamQuery(): AsyncIterableIterator<QueryResult<never>> {
    throw new Error('the server does not stream SQLite queries');
  }
}
