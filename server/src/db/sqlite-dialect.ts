import { SqliteDialect, SqliteQueryCompiler, type QueryCompiler } from 'kysely';

/**
 * Kysely's SQLite dialect with every bound value written `+?` instead of `?`.
 *
 * SQLite's query planner may look at a bound value while it plans (its query planner stability
 * guarantee is off by default): in a join, an `= ?` term it only filters by is weighed by the value
 * bound to it, and the statement is marked to be planned again whenever that parameter is bound
 * anew. better-sqlite3 binds at every run, so every run of such a statement re-prepared it: the
 * session lookup (sessions, users and teams joined) cost ~60 µs instead of ~5, and a join by an
 * id ~8 µs instead of ~1 (bench/NOTES.md). The planner reads a value only from a bare parameter;
 * unary plus is SQLite's no-op operator (same value, no affinity, as a bare parameter has none),
 * so `col = +?` means what `col = ?` does, still searches the column's index, and plans once.
 * The connection cannot switch the guarantee on (better-sqlite3 does not expose
 * sqlite3_db_config), so the placeholders carry it.
 */
export class PlannedOnceSqliteDialect extends SqliteDialect {
  override createQueryCompiler(): QueryCompiler {
    return new PlannedOnceQueryCompiler();
  }
}

class PlannedOnceQueryCompiler extends SqliteQueryCompiler {
  protected override getCurrentParameterPlaceholder(): string {
    return '+?';
  }
}
