import { sql } from 'kysely';
import { countedSolve } from '../../db/counted.js';
import type { Executor } from '../../db/schema.js';

// The first-blood notices (migration 0007_c, 0012_d): one row per challenge whose first blood was
// announced or is held back by the freeze. Written in the solve's transaction (submissions) and
// released in the freeze's (setFreezeAt).

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
