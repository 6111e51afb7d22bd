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
  // Written as SQL, like hasSolved: the builder's form cost ~35 us a correct flag to build.
  const { rows } = await sql<{ id: number }>`insert into solves (user_id, challenge_id, team_id, created_at)
    select users.id, cast(${solve.challengeId} as integer), teams.id, cast(${solve.createdAt} as text)
    from users left join teams on teams.id = users.team_id
    where users.id = ${solve.userId}
    returning id`.execute(db);
  return rows[0]?.id ?? null;
}

/**
 * Records a practice solve (after the end, in practice mode): its own table, so no score, board,
 * graph or feed ever reads it. False when the user had already practised this challenge.
 */
export async function insertPracticeSolve(
  db: Executor,
  solve: { userId: number; challengeId: number; createdAt: string },
): Promise<boolean> {
  const result = await db
    .insertInto('practice_solves')
    .values({ user_id: solve.userId, challenge_id: solve.challengeId, created_at: solve.createdAt })
    .onConflict((oc) => oc.columns(['user_id', 'challenge_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** A user's practice solves with the challenges' names, oldest first. */
export async function listPracticeSolves(
  db: Executor,
  userId: number,
): Promise<{ challenge_id: number; name: string; created_at: string }[]> {
  return db
    .selectFrom('practice_solves')
    .innerJoin('challenges', 'challenges.id', 'practice_solves.challenge_id')
    .select(['practice_solves.challenge_id', 'challenges.name', 'practice_solves.created_at'])
    .where('practice_solves.user_id', '=', userId)
    .orderBy('practice_solves.created_at')
    .orderBy('practice_solves.id')
    .execute();
}
