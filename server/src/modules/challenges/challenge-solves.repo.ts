import { sql } from 'kysely';
import { countedSolve } from '../../db/counted.js';
import type { Executor } from '../../db/schema.js';
import type { ScoringColumns } from '../scoreboard/scoring-columns.js';

// What competitors did to challenges: solve counts, first bloods, solvers, claimed attempts.

/** A challenge as the lists show it, with its solve count and rating sum (no flag). */
export interface ChallengeSummaryRow extends ScoringColumns {
  id: number;
  name: string;
  description: string;
  category: string;
  difficulty: string;
  written_by: string;
  points: number;
  is_active: number;
  solve_count: number;
  rating_sum: number;
  rating_count: number;
}

/**
 * Solves per challenge, admins' and hidden competitors' excluded (they count nowhere; one shared
 * filter, db/counted.ts), read from the (challenge_id, user_id) index alone (migration 0003).
 */
function nonAdminSolveCounts(db: Executor) {
  return db
    .selectFrom('solves')
    .where(countedSolve)
    .groupBy('solves.challenge_id')
    .select(['solves.challenge_id', (eb) => eb.fn.countAll<number | string>().as('solve_count')]);
}

/**
 * Every challenge with its solve count (admins' solves excluded: they count nowhere) and its
 * rating sum and count. Two grouped sub-queries, no per-row work. Unordered: the service orders by
 * name the same way on both dialects.
 */
export async function listChallengeSummaries(db: Executor): Promise<ChallengeSummaryRow[]> {
  const solveCounts = nonAdminSolveCounts(db).as('sc');
  const ratingTotals = db
    .selectFrom('ratings')
    .groupBy('ratings.challenge_id')
    .select([
      'ratings.challenge_id',
      (eb) => eb.fn.sum<number>('ratings.rating').as('rating_sum'),
      (eb) => eb.fn.countAll<number>().as('rating_count'),
    ])
    .as('rt');
  const rows = await db
    .selectFrom('challenges')
    .leftJoin(solveCounts, 'sc.challenge_id', 'challenges.id')
    .leftJoin(ratingTotals, 'rt.challenge_id', 'challenges.id')
    .select([
      'challenges.id',
      'challenges.name',
      'challenges.description',
      'challenges.category',
      'challenges.difficulty',
      'challenges.written_by',
      'challenges.points',
      'challenges.is_active',
      'challenges.scoring_type',
      'challenges.scoring_function',
      'challenges.scoring_initial',
      'challenges.scoring_minimum',
      'challenges.scoring_decay',
      sql<number>`coalesce(sc.solve_count, 0)`.as('solve_count'),
      sql<number>`coalesce(rt.rating_sum, 0)`.as('rating_sum'),
      sql<number>`coalesce(rt.rating_count, 0)`.as('rating_count'),
    ])
    .execute();
  // PostgreSQL answers sums and counts as strings or bigints; keep them numbers.
  return rows.map((r) => ({
    ...r,
    solve_count: Number(r.solve_count),
    rating_sum: Number(r.rating_sum),
    rating_count: Number(r.rating_count),
  }));
}

/** Who solved what, in solve order: challenge name and username per solve (admin Solvers tab). */
export async function listSolvesWithNames(
  db: Executor,
): Promise<{ challenge_id: number; username: string }[]> {
  return db
    .selectFrom('solves')
    .innerJoin('users', 'users.id', 'solves.user_id')
    .select(['solves.challenge_id', 'users.username'])
    .orderBy('solves.created_at')
    .orderBy('solves.id')
    .execute();
}

export interface FirstBloodRow {
  challenge_id: number;
  solve_id: number;
  username: string;
  /** The competitor: the team credited with the solve, or the user without one. */
  competitor: string;
}

/**
 * Each challenge's first blood: its first solve (lowest id) that counts in public (countedSolve:
 * not an admin, not hidden). Without `solveIds`, for every challenge; with them, among those
 * solves only (the new solves of the feed).
 */
export async function listFirstBloods(db: Executor, solveIds?: readonly number[]): Promise<FirstBloodRow[]> {
  if (solveIds && solveIds.length === 0) return [];
  let query = db
    .selectFrom('solves')
    .innerJoin('users', 'users.id', 'solves.user_id')
    .leftJoin('teams', 'teams.id', 'solves.team_id')
    .select([
      'solves.challenge_id',
      'solves.id as solve_id',
      'users.username',
      sql<string>`coalesce(teams.name, users.username)`.as('competitor'),
    ]);
  query = solveIds
    ? query.where('solves.id', 'in', [...solveIds]).where(countedSolve)
    : query.where('solves.id', 'in', (eb) =>
        eb
          .selectFrom('solves')
          .where(countedSolve)
          .groupBy('solves.challenge_id')
          .select((e) => e.fn.min<number>('solves.id').as('id')),
      );
  return query.orderBy('solves.id').execute();
}

/** Attempts the user has claimed against a challenge (0 when none). */
export async function attemptsUsed(db: Executor, userId: number, challengeId: number): Promise<number> {
  const row = await db
    .selectFrom('challenge_attempts')
    .select('used')
    .where('user_id', '=', userId)
    .where('challenge_id', '=', challengeId)
    .executeTakeFirst();
  return row?.used ?? 0;
}

/**
 * Claims one attempt in one statement: a conditional upsert that adds one only while fewer than
 * max are used, so parallel guesses can never claim more than max. Answers whether it claimed.
 */
export async function claimAttempt(
  db: Executor,
  userId: number,
  challengeId: number,
  max: number,
): Promise<boolean> {
  const row = await db
    .insertInto('challenge_attempts')
    .values({ user_id: userId, challenge_id: challengeId, used: 1 })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'challenge_id'])
        .doUpdateSet({ used: sql<number>`challenge_attempts.used + 1` })
        .where('challenge_attempts.used', '<', max),
    )
    .returning('used')
    .executeTakeFirst();
  return row !== undefined;
}
