import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';

/** Where a reader of the solves stands: how many there were and the highest id it has seen. */
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
 * The solves recorded after a position, with the count and highest id now, read in one statement
 * (one snapshot on both databases). When count is not the old count plus the new rows, solves were
 * deleted (a removed user or challenge) or one with a lower id committed late (PostgreSQL hands
 * out ids before commit): the caller must start over from a full read.
 */
export async function readSolvesSince(
  db: Executor,
  after: SolveFeedPosition,
): Promise<{ position: SolveFeedPosition; solves: NewSolve[]; consistent: boolean }> {
  const { rows } = await sql<{
    total: number | string;
    max_id: number | string;
    id: number | null;
    user_id: number | null;
    team_id: number | null;
    challenge_id: number | null;
  }>`select t.total, t.max_id, s.id, s.user_id, s.team_id, s.challenge_id
       from (select count(*) as total, coalesce(max(id), 0) as max_id from solves) t
       left join solves s on s.id > ${after.maxId}
       order by s.id`.execute(db);
  const first = rows[0];
  const position = { count: Number(first?.total ?? 0), maxId: Number(first?.max_id ?? 0) };
  const solves = rows
    .filter((r) => r.id !== null)
    .map((r) => ({ id: r.id!, user_id: r.user_id!, team_id: r.team_id, challenge_id: r.challenge_id! }));
  return { position, solves, consistent: position.count === after.count + solves.length };
}

/** The current position, for a reader about to make a full read (taken before it, never after). */
export async function currentSolvePosition(db: Executor): Promise<SolveFeedPosition> {
  const row = await db
    .selectFrom('solves')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('total'),
      eb.fn.max<number | null>('id').as('max_id'),
    ])
    .executeTakeFirstOrThrow();
  return { count: Number(row.total), maxId: Number(row.max_id ?? 0) };
}
