import { sql } from 'kysely';
import type { DatabaseHandle, Dialect } from '../../db/connect.js';
import type { Executor } from '../../db/schema.js';
import type { PartialInvalidation } from '../../lib/invalidation.js';

/**
 * Where a reader of the solves stands: the highest id it has seen, and what tells it that solves
 * changed otherwise: on PostgreSQL how many there were (the solve_count_shards kept by the database,
 * migration 0005), on SQLite the solve_changes counter (migration 0004).
 */
export interface SolveFeedPosition {
  count: number;
  maxId: number;
  /**
   * PostgreSQL: ids at most LATE_COMMIT_WINDOW below maxId that were not there when read. Ids are
   * handed out before commit, so concurrent correct flags commit out of order all the time: a
   * solve whose id is here is read as new when it lands instead of sending every reader back to
   * a full read. (Ids of writes that rolled back stay here until they fall out of the window.)
   */
  unseen: readonly number[];
}

/** How far below the highest id a late commit is still read as a new solve (PostgreSQL). */
export const LATE_COMMIT_WINDOW = 256;

export interface NewSolve {
  id: number;
  user_id: number;
  team_id: number | null;
  challenge_id: number;
  /** ISO 8601 UTC. */
  created_at: string;
}

/** A solve's columns as the feed's left join reads them (all null when no solve is new). */
interface JoinedSolve {
  id: number | null;
  user_id: number | null;
  team_id: number | null;
  challenge_id: number | null;
  created_at: string | null;
}

/**
 * The solves recorded after a position, read in one statement (one snapshot) with what would
 * tell that solves changed otherwise. When that moved, solves were deleted (a removed user or
 * challenge), changed, or, on PostgreSQL, one committed so late that its id is no longer in the
 * position's unseen window: the caller must start over from a full read.
 */
export async function readSolvesSince(
  db: Executor,
  dialect: Dialect,
  after: SolveFeedPosition,
): Promise<{ position: SolveFeedPosition; solves: NewSolve[]; consistent: boolean }> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<
      { changes: number } & JoinedSolve
    >`select c.changes, s.id, s.user_id, s.team_id, s.challenge_id, s.created_at
         from solve_changes c
         left join solves s on s.id > ${after.maxId}
         order by s.id`.execute(db);
    const solves = newSolves(rows);
    const maxId = solves.length > 0 ? solves[solves.length - 1]!.id : after.maxId;
    const changes = Number(rows[0]?.changes ?? 0);
    return { position: { count: changes, maxId, unseen: [] }, solves, consistent: changes === after.count };
  }
  const { rows } = await sql<
    { total: number | string } & JoinedSolve
  >`select t.total, s.id, s.user_id, s.team_id, s.challenge_id, s.created_at
       from (select coalesce(sum(n), 0) as total from solve_count_shards) t
       left join solves s on s.id > ${after.maxId} or s.id = any(${[...after.unseen]}::integer[])
       order by s.id`.execute(db);
  const solves = newSolves(rows);
  const count = Number(rows[0]?.total ?? 0);
  const maxId = solves.reduce((m, x) => Math.max(m, x.id), after.maxId);
  const found = new Set(solves.map((x) => x.id));
  const unseen = after.unseen.filter((id) => !found.has(id));
  for (let id = Math.max(after.maxId + 1, maxId - LATE_COMMIT_WINDOW + 1); id < maxId; id++) {
    if (!found.has(id)) unseen.push(id);
  }
  return {
    position: { count, maxId, unseen: unseen.filter((id) => id > maxId - LATE_COMMIT_WINDOW) },
    solves,
    consistent: count === after.count + solves.length,
  };
}

function newSolves(rows: JoinedSolve[]): NewSolve[] {
  return rows
    .filter((r) => r.id !== null)
    .map((r) => ({
      id: r.id!,
      user_id: r.user_id!,
      team_id: r.team_id,
      challenge_id: r.challenge_id!,
      created_at: r.created_at!,
    }));
}

/** The current position, for a reader about to make a full read (taken before it, never after). */
export async function currentSolvePosition(db: Executor, dialect: Dialect): Promise<SolveFeedPosition> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ changes: number; max_id: number }>`select
        (select changes from solve_changes) as changes,
        (select coalesce(max(id), 0) from solves) as max_id`.execute(db);
    return { count: Number(rows[0]!.changes), maxId: Number(rows[0]!.max_id), unseen: [] };
  }
  const { rows } = await sql<{ total: number | string; max_id: number | string; recent: number[] }>`select
      (select coalesce(sum(n), 0) from solve_count_shards) as total,
      m.max_id,
      array(select id from solves where id > m.max_id - ${LATE_COMMIT_WINDOW}) as recent
    from (select coalesce(max(id), 0) as max_id from solves) m`.execute(db);
  const row = rows[0]!;
  const maxId = Number(row.max_id);
  const recent = new Set(row.recent.map(Number));
  const unseen: number[] = [];
  for (let id = Math.max(1, maxId - LATE_COMMIT_WINDOW + 1); id < maxId; id++)
    if (!recent.has(id)) unseen.push(id);
  return { count: Number(row.total), maxId, unseen };
}

/**
 * Follows the solves for a cache that keeps many answers: each call returns the solves recorded
 * since the previous call, or null when it cannot tell (a deletion, a late commit, a failed read),
 * and then the caller drops everything. The starting position is read at once: answers built
 * before it was read are kept only if no solve was published while they were built (KeyedCache).
 */
function followSolves(database: DatabaseHandle): () => Promise<NewSolve[] | null> {
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

/** Whom a batch of new solves touches: their solvers, and their teams (null: a solo solver's). */
export interface SolveTouch {
  users: ReadonlySet<number>;
  teams: ReadonlySet<number | null>;
}

/**
 * A KeyedCache's partial drop on `solves-added`: the new solves are read once for the cache
 * (followSolves), and `touched` names the kept entries they change; when the feed cannot tell,
 * the cache drops everything.
 */
export function dropTouchedBySolves<K, V>(
  database: DatabaseHandle,
  touched: (key: K, value: V, by: SolveTouch) => boolean,
): PartialInvalidation<K, V> {
  const solvesSince = followSolves(database);
  return {
    topics: ['solves-added'],
    stale: async () => {
      const solves = await solvesSince();
      if (!solves) return null;
      const by = {
        users: new Set(solves.map((s) => s.user_id)),
        teams: new Set(solves.map((s) => s.team_id)),
      };
      return (key, value) => touched(key, value, by);
    },
  };
}
