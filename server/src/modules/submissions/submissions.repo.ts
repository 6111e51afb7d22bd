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

/** Every (user, challenge) pair that has a solve, for the in-memory solved check. */
export async function listSolvedPairs(db: Executor): Promise<{ user_id: number; challenge_id: number }[]> {
  return db.selectFrom('solves').select(['user_id', 'challenge_id']).execute();
}

/**
 * Records a solve credited to the team the user is on at that moment (a team id that no longer
 * names a team counts as none), in one statement: the team is read and the solve written
 * atomically on both databases, with one round trip instead of a transaction's four. Answers
 * the solve's id, or null when the user itself is gone; the (user, challenge) unique rule refuses a second solve.
 */
export async function insertSolveForCurrentTeam(
  db: Executor,
  solve: { userId: number; challengeId: number; createdAt: string },
): Promise<number | null> {
  const row = await db
    .insertInto('solves')
    .columns(['user_id', 'challenge_id', 'team_id', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .leftJoin('teams', 'teams.id', 'users.team_id')
        .select([
          'users.id as user_id',
          sql<number>`cast(${solve.challengeId} as integer)`.as('challenge_id'),
          'teams.id as team_id',
          sql<string>`cast(${solve.createdAt} as text)`.as('created_at'),
        ])
        .where('users.id', '=', solve.userId),
    )
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}
