import type { AppContext } from '../src/context.js';

/**
 * Every stored row of the application's tables, in a stable order, so a test can prove that a
 * refused request changed nothing. rate_limits is left out on purpose: counting attempts,
 * refused ones included, is its job.
 */
const TABLES = [
  'users',
  'identities',
  'sessions',
  'api_tokens',
  'oauth_states',
  'teams',
  'join_requests',
  'challenges',
  'files',
  'challenge_files',
  'challenge_solutions',
  'challenge_solution_files',
  'writeups',
  'solves',
  'ratings',
  'settings',
] as const;

export type DbSnapshot = Record<(typeof TABLES)[number], unknown[]>;

export async function snapshotDatabase(ctx: AppContext): Promise<DbSnapshot> {
  const db = ctx.database.db;
  const rows = await Promise.all(
    TABLES.map(async (table) => {
      const all = await db.selectFrom(table).selectAll().execute();
      const text = all.map((r) => JSON.stringify(r)).sort();
      return [table, text] as const;
    }),
  );
  return Object.fromEntries(rows) as DbSnapshot;
}

/** Names of the tables whose rows differ between two snapshots (empty when equal). */
export function changedTables(before: DbSnapshot, after: DbSnapshot): string[] {
  return TABLES.filter((t) => JSON.stringify(before[t]) !== JSON.stringify(after[t]));
}
