import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { Executor } from './schema.js';

/** A value a prepared query binds at each run, named where the query is built. */
class Slot {
  constructor(readonly name: string) {}
}

/** Names a value of the query's arguments where the query is built (a scalar, bound at each run). */
export type Bind<A> = <K extends keyof A & string>(name: K) => A[K];

export interface PreparedQuery<A, R> {
  /** Every row. */
  all(db: Executor, args: A): Promise<R[]>;
  /** The first row, or undefined. */
  first(db: Executor, args: A): Promise<R | undefined>;
  /** The driver's result (rows, and the rows a write changed). */
  run(db: Executor, args: A): Promise<QueryResult<R>>;
}

/**
 * A query of the request path built and compiled once per database, its values bound at each run.
 *
 * Kysely builds a query as a tree of frozen nodes and compiles it to SQL at every execution: 7-28
 * µs of CPU for the queries a new player's sign-in runs (the session lookup, three joins and an
 * `or`, 28 µs), about 30 of them a player in the start-of-event rush (bench/NOTES.md, "Prepared
 * queries"), and the SQL text is a new string each time, hashed again by the statement cache. A
 * prepared query is written the same way, with `bind('name')` where a value goes: the tree is built
 * with stand-ins once per database (its dialect's compiler), and each run hands the same SQL text
 * with the arguments in the stand-ins' places. Only scalar values may be bound: the shape of the
 * query (its columns, an `in` list's length) is fixed when it is built.
 */
export function prepared<A extends Record<string, unknown>, R>(
  build: (db: Executor, bind: Bind<A>) => Compilable<R>,
): PreparedQuery<A, R> {
  // One compilation per dialect adapter: a Kysely instance and its transactions share theirs
  // (read through getExecutor(), which Kysely's own builders use; prepared.test.ts runs on both
  // databases, in and out of a transaction).
  const compiled = new WeakMap<object, { query: CompiledQuery<R>; slots: (string | null)[] }>();
  const bind = ((name: string) => new Slot(name)) as Bind<A>;
  const run = async (db: Executor, args: A): Promise<QueryResult<R>> => {
    const key = db.getExecutor().adapter;
    let entry = compiled.get(key);
    if (!entry) {
      const query = build(db, bind).compile();
      entry = { query, slots: query.parameters.map((p) => (p instanceof Slot ? p.name : null)) };
      compiled.set(key, entry);
    }
    const { query, slots } = entry;
    const parameters = slots.map((name, i) => {
      if (name === null) return query.parameters[i];
      const value = args[name];
      if (value === undefined) throw new Error(`prepared query: no value for '${name}'`);
      return value;
    });
    return db.executeQuery<R>({ ...query, parameters });
  };
  return {
    run,
    all: async (db, args) => (await run(db, args)).rows,
    first: async (db, args) => (await run(db, args)).rows[0],
  };
}
