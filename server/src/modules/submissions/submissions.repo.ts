import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';

/**
 * Whether the user has solved the challenge. Asked before every flag is compared, so it is
 * written as one parameterised statement: Kysely's builder cost more than the lookup itself.
 */
export async function hasSolved(db: Executor, userId: number, challengeId: number): Promise<boolean> {
  const { rows } = await sql<{ solved: number }>`select 1 as solved from solves
    where user_id = ${userId} and challenge_id = ${challengeId}`.execute(db);
  return rows.length > 0;
}

/**
 * The solver's current team, read inside the solve's transaction so the solve is credited to the
 * team the user is on at that moment. A team id that no longer names a team counts as none.
 * Undefined when the user itself is gone.
 */
export async function findSolverTeam(
  db: Executor,
  userId: number,
): Promise<{ team_id: number | null } | undefined> {
  return db
    .selectFrom('users')
    .leftJoin('teams', 'teams.id', 'users.team_id')
    .select('teams.id as team_id')
    .where('users.id', '=', userId)
    .executeTakeFirst();
}

/** Records a solve; the (user, challenge) unique rule refuses a second one. */
export async function insertSolve(
  db: Executor,
  row: { user_id: number; challenge_id: number; team_id: number | null; created_at: string },
): Promise<void> {
  await db.insertInto('solves').values(row).execute();
}
