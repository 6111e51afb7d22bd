import { sql } from 'kysely';
import type { DatabaseHandle, Dialect } from '../../db/connect.js';
import type { Executor } from '../../db/schema.js';

/**
 * Where a reader of the solves stands: the highest id it has seen, and what tells it that solves
 * changed otherwise: on PostgreSQL how many there were (the solve_count_shards kept by the database,
 * migration 0005), on SQLite the solve_changes counter (migration 0004).
 */
export interface SolveFeedPosition {
  count: number;
  maxId: number;
}

export interface NewSolve {
  id: number;
  user_id: number;
  team_id: number | null;
  challenge_id: number;
}

/**
 * The solves recorded after a position, read in one statement (one snapshot) with what would
 * tell that solves changed otherwise. When that moved, solves were deleted (a removed user or
 * challenge), changed, or one with a lower id committed late (PostgreSQL hands out ids before
 * commit): the caller must start over from a full read.
 */
export async function readSolvesSince(
  db: Executor,
  dialect: Dialect,
  after: SolveFeedPosition,
): Promise<{ position: SolveFeedPosition; solves: NewSolve[]; consistent: boolean }> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{
      changes: number;
      id: number | null;
      user_id: number | null;
      team_id: number | null;
      challenge_id: number | null;
    }>`select c.changes, s.id, s.user_id, s.team_id, s.challenge_id
         from solve_changes c
         left join solves s on s.id > ${after.maxId}
         order by s.id`.execute(db);
    const solves = newSolves(rows);
    const maxId = solves.length > 0 ? solves[solves.length - 1]!.id : after.maxId;
    const changes = Number(rows[0]?.changes ?? 0);
    return { position: { count: changes, maxId }, solves, consistent: changes === after.count };
  }
  const { rows } = await sql<{
    total: number | string;
    max_id: number | string;
    id: number | null;
    user_id: number | null;
    team_id: number | null;
    challenge_id: number | null;
  }>`select t.total, t.max_id, s.id, s.user_id, s.team_id, s.challenge_id
       from (select (select coalesce(sum(n), 0) from solve_count_shards) as total,
                    (select coalesce(max(id), 0) from solves) as max_id) t
       left join solves s on s.id > ${after.maxId}
       order by s.id`.execute(db);
  const first = rows[0];
  const position = { count: Number(first?.total ?? 0), maxId: Number(first?.max_id ?? 0) };
  const solves = newSolves(rows);
  return { position, solves, consistent: position.count === after.count + solves.length };
}

function newSolves(
  rows: { id: number | null; user_id: number | null; team_id: number | null; challenge_id: number | null }[],
): NewSolve[] {
  return rows
    .filter((r) => r.id !== null)
    .map((r) => ({ id: r.id!, user_id: r.user_id!, team_id: r.team_id, challenge_id: r.challenge_id! }));
}

/** The current position, for a reader about to make a full read (taken before it, never after). */
export async function currentSolvePosition(db: Executor, dialect: Dialect): Promise<SolveFeedPosition> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ changes: number; max_id: number }>`select
        (select changes from solve_changes) as changes,
        (select coalesce(max(id), 0) from solves) as max_id`.execute(db);
    return { count: Number(rows[0]!.changes), maxId: Number(rows[0]!.max_id) };
  }
  const { rows } = await sql<{ total: number | string; max_id: number | string }>`select
      (select coalesce(sum(n), 0) from solve_count_shards) as total,
      (select coalesce(max(id), 0) from solves) as max_id`.execute(db);
  const row = rows[0]!;
  return { count: Number(row.total), maxId: Number(row.max_id) };
}

/**
 * Follows the solves for a cache that keeps many answers: each call returns the solves recorded
 * since the previous call, or null when it cannot tell (a deletion, a late commit, a failed read),
 * and then the caller drops everything. The starting position is read at once: answers built
 * before it was read are kept only if no solve was published while they were built (KeyedCache).
 */
export function followSolves(database: DatabaseHandle): () => Promise<NewSolve[] | null> {
  const start = () => currentSolvePosition(database.db, database.dialect).catch(() => null);
  let position: Promise<SolveFeedPosition | null> = start();
  return async () => {
    const from = await position;
    if (!from) {
      position = start();
      return null;
    }
    const feed = readSolvesSince(database.db, database.dialect, from);
    position = feed.then(
      (f) => f.position,
      () => null,
    );
    const { solves, consistent } = await feed;
    return consistent ? solves : null;
  };
}
