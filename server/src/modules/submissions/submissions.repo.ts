import { countedSolve } from '../../db/counted.js';
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
 * Reserves the first-blood announcement of a challenge, before the solve is written: answers
 * whether this transaction holds it. NOTE: the primary key makes concurrent reservations queue (on
 * PostgreSQL the second insert waits for the first transaction, then does nothing), so the solve
 * that holds it also gets the lowest id of the racing solves: the one the list shows.
 */
export async function reserveFirstBloodNotice(
  trx: Executor,
  challengeId: number,
  at: string,
): Promise<boolean> {
  const row = await trx
    .insertInto('first_blood_notices')
    .values({ challenge_id: challengeId, solve_id: 0, created_at: at })
    .onConflict((oc) => oc.column('challenge_id').doNothing())
    .returning('challenge_id')
    .executeTakeFirst();
  return row !== undefined;
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

/**
 * The names a first-blood announcement gives (the challenge, and the team or else the player), or
 * undefined when the solve no longer counts.
 */
function firstBloodNames(
  trx: Executor,
  solveId: number,
): Promise<{ challenge: string; competitor: string } | undefined> {
  return trx
    .selectFrom('solves')
    .innerJoin('users', 'users.id', 'solves.user_id')
    .innerJoin('challenges', 'challenges.id', 'solves.challenge_id')
    .leftJoin('teams', 'teams.id', 'solves.team_id')
    .select([
      'challenges.name as challenge',
      sql<string>`coalesce(teams.name, users.username)`.as('competitor'),
    ])
    .where('solves.id', '=', solveId)
    .where(countedSolve)
    .executeTakeFirst();
}

/**
 * Completes a reservation with the solve: answers the names to announce when the solve counts in
 * public (countedSolve); otherwise gives the reservation up (a hidden solver) and answers null.
 */
export async function confirmFirstBloodNotice(
  trx: Executor,
  challengeId: number,
  solveId: number,
  /** Scored during a freeze: kept back until the public board includes it (0012_d). */
  held = false,
): Promise<{ challenge: string; competitor: string } | null> {
  const names = await firstBloodNames(trx, solveId);
  if (!names) {
    await trx.deleteFrom('first_blood_notices').where('challenge_id', '=', challengeId).execute();
    return null;
  }
  await trx
    .updateTable('first_blood_notices')
    .set({ solve_id: solveId, held: held ? 1 : 0 })
    .where('challenge_id', '=', challengeId)
    .execute();
  return names;
}

/**
 * Gives up the hold of the first bloods held during a freeze whose solves the public board now
 * includes (solved before `until`; every one when null), and answers the names to announce for
 * those whose solves still count. NOTE: the conditional update (held = 1) lets exactly one
 * transaction take each notice, however many processes lift the freeze at once.
 */
export async function releaseHeldFirstBloods(
  trx: Executor,
  until: string | null,
): Promise<{ challenge: string; competitor: string }[]> {
  const held = await trx
    .selectFrom('first_blood_notices')
    .innerJoin('solves', 'solves.id', 'first_blood_notices.solve_id')
    .select(['first_blood_notices.challenge_id', 'first_blood_notices.solve_id'])
    .where('first_blood_notices.held', '=', 1)
    .$if(until !== null, (q) => q.where('solves.created_at', '<', until!))
    .orderBy('first_blood_notices.solve_id')
    .execute();
  const released: { challenge: string; competitor: string }[] = [];
  for (const notice of held) {
    const taken = await trx
      .updateTable('first_blood_notices')
      .set({ held: 0 })
      .where('challenge_id', '=', notice.challenge_id)
      .where('solve_id', '=', notice.solve_id)
      .where('held', '=', 1)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) continue;
    const names = await firstBloodNames(trx, notice.solve_id);
    if (names) released.push(names);
  }
  return released;
}
