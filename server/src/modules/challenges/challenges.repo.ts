import { sql, type Insertable } from 'kysely';
import { countedSolve } from '../../db/counted.js';
import type { Database, Executor } from '../../db/schema.js';
import { groupBy } from '../../lib/group-by.js';
import type { ScoringColumns } from '../scoreboard/scoring-columns.js';

/** The stored fields of a challenge an admin writes (points already derived, HTML already clean). */
export interface ChallengeFields extends ScoringColumns {
  name: string;
  description: string;
  category: string;
  difficulty: string;
  written_by: string;
  points: number;
  max_attempts: number | null;
  release_at: string | null;
  /** 1: per-team flags (the one static flag is the base); 0: one flag for all. */
  per_team: number;
  /** 1: the challenge page offers the competitor its own per-team flag. */
  per_team_on_page: number;
  /** The container per team as JSON (issue 30), or null. */
  instance: string | null;
}

/** The fields that an update leaves as they are when the body omits them. */
export type OptionalChallengeFields = 'max_attempts' | 'release_at' | 'per_team' | 'per_team_on_page' | 'instance';

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

/** The solve counts of some challenges (those a batch of new solves names). */
export async function countSolvesOf(
  db: Executor,
  challengeIds: readonly number[],
): Promise<Map<number, number>> {
  if (challengeIds.length === 0) return new Map();
  const rows = await nonAdminSolveCounts(db).where('solves.challenge_id', 'in', challengeIds).execute();
  return new Map(rows.map((r) => [r.challenge_id, Number(r.solve_count)]));
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

/** Every challenge's flags by id, in their order (admin views and the flag gate only). */
export async function listChallengeFlags(
  db: Executor,
): Promise<Map<number, { type: string; content: string }[]>> {
  const rows = await db
    .selectFrom('challenge_flags')
    .select(['challenge_id', 'type', 'content'])
    .orderBy('challenge_id')
    .orderBy('position')
    .execute();
  return groupBy(
    rows,
    (r) => r.challenge_id,
    (r) => ({ type: r.type, content: r.content }),
  );
}

/** The tables whose rows hang off one challenge (its flags, files and prerequisites). */
type ChallengeChildTable = 'challenge_flags' | 'challenge_files' | 'challenge_prerequisites';

/** Replaces all of a challenge's rows in `table` with `rows` (none: the challenge keeps none). */
async function replaceChildRows<T extends ChallengeChildTable>(
  db: Executor,
  table: T,
  challengeId: number,
  rows: Insertable<Database[T]>[],
): Promise<void> {
  await db
    // The union (not T) lets Kysely see challenge_id in every one of the tables.
    .deleteFrom(table as ChallengeChildTable)
    .where('challenge_id', '=', challengeId)
    .execute();
  if (rows.length === 0) return;
  await db.insertInto(table).values(rows).execute();
}

export async function replaceChallengeFlags(
  db: Executor,
  challengeId: number,
  flags: readonly { type: string; content: string }[],
): Promise<void> {
  await replaceChildRows(
    db,
    'challenge_flags',
    challengeId,
    flags.map((f, position) => ({ challenge_id: challengeId, position, type: f.type, content: f.content })),
  );
}

/** The authoring fields the admin list shows beside the public ones. */
export async function listAuthoringFields(
  db: Executor,
): Promise<
  Map<
    number,
    {
      max_attempts: number | null;
      release_at: string | null;
      per_team: number;
      per_team_on_page: number;
      instance: string | null;
    }
  >
> {
  const rows = await db
    .selectFrom('challenges')
    .select(['id', 'max_attempts', 'release_at', 'per_team', 'per_team_on_page', 'instance'])
    .execute();
  return new Map(
    rows.map((r) => [
      r.id,
      {
        max_attempts: r.max_attempts,
        release_at: r.release_at,
        per_team: r.per_team,
        per_team_on_page: r.per_team_on_page,
        instance: r.instance,
      },
    ]),
  );
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

/** Every challenge's scoring columns by id (the admin view shows the parameters). */
export async function listChallengeScorings(db: Executor): Promise<Map<number, ScoringColumns>> {
  const rows = await db
    .selectFrom('challenges')
    .select(['id', 'scoring_type', 'scoring_function', 'scoring_initial', 'scoring_minimum', 'scoring_decay'])
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** Attached file names per challenge, in name order. */
export async function listAttachedFileNames(db: Executor): Promise<Map<number, string[]>> {
  const rows = await db
    .selectFrom('challenge_files')
    .innerJoin('files', 'files.id', 'challenge_files.file_id')
    .select(['challenge_files.challenge_id', 'files.name'])
    .orderBy('files.name')
    .execute();
  return groupBy(
    rows,
    (r) => r.challenge_id,
    (r) => r.name,
  );
}

/** Every challenge's release time (null: released), for the public list's schedule. */
export async function listReleaseTimes(db: Executor): Promise<Map<number, string | null>> {
  const rows = await db.selectFrom('challenges').select(['id', 'release_at']).execute();
  return new Map(rows.map((r) => [r.id, r.release_at]));
}

/**
 * The prerequisites of a challenge that a competitor has not solved: neither the user (any solve
 * of theirs) nor, when on a team, the team (a solve recorded with it). Empty: unlocked.
 */
export async function unmetPrerequisites(
  db: Executor,
  challengeId: number,
  userId: number,
  teamId: number | null,
): Promise<number[]> {
  const rows = await db
    .selectFrom('challenge_prerequisites')
    .select('requires_id')
    .where('challenge_id', '=', challengeId)
    .where('requires_id', 'not in', (eb) =>
      eb
        .selectFrom('solves')
        .select('solves.challenge_id')
        .where((w) =>
          teamId === null
            ? w('solves.user_id', '=', userId)
            : w.or([w('solves.user_id', '=', userId), w('solves.team_id', '=', teamId)]),
        ),
    )
    .execute();
  return rows.map((r) => r.requires_id);
}

/** What flag submission needs to know about every challenge (its flags are read beside it). */
export async function listChallengesForPlay(db: Executor): Promise<
  {
    id: number;
    is_active: number;
    max_attempts: number | null;
    release_at: string | null;
    per_team: number;
    per_team_on_page: number;
    has_instance: number;
  }[]
> {
  return db
    .selectFrom('challenges')
    .select(['id', 'is_active', 'max_attempts', 'release_at', 'per_team', 'per_team_on_page'])
    .select(sql<number>`case when instance is null then 0 else 1 end`.as('has_instance'))
    .execute();
}

export async function challengeExists(db: Executor, id: number): Promise<boolean> {
  const row = await db.selectFrom('challenges').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

export async function listChallengeNames(db: Executor): Promise<{ id: number; name: string }[]> {
  return db.selectFrom('challenges').select(['id', 'name']).execute();
}

export async function insertChallenge(
  db: Executor,
  fields: ChallengeFields & { is_active: number; created_at: string },
): Promise<number> {
  const row = await db
    .insertInto('challenges')
    .values({ ...fields, updated_at: fields.created_at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Updates a challenge; false when there is no such challenge. */
export async function updateChallengeRow(
  db: Executor,
  id: number,
  fields: Omit<ChallengeFields, OptionalChallengeFields> &
    Partial<Pick<ChallengeFields, OptionalChallengeFields>> & { updated_at: string; is_active?: number },
): Promise<boolean> {
  const result = await db.updateTable('challenges').set(fields).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Flips is_active in one statement; null when there is no such challenge. */
export async function toggleChallengeActive(
  db: Executor,
  id: number,
  updatedAt: string,
): Promise<number | null> {
  const row = await db
    .updateTable('challenges')
    .set({ is_active: sql<number>`1 - is_active`, updated_at: updatedAt })
    .where('id', '=', id)
    .returning('is_active')
    .executeTakeFirst();
  return row ? row.is_active : null;
}

/** Deletes a challenge; its files links, solves and ratings go with it (ON DELETE CASCADE). */
export async function deleteChallengeRow(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('challenges').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Ids of stored files by exact name. */
export async function findFileIdsByName(
  db: Executor,
  names: readonly string[],
): Promise<Map<string, number>> {
  if (names.length === 0) return new Map();
  const rows = await db.selectFrom('files').select(['id', 'name']).where('name', 'in', names).execute();
  return new Map(rows.map((r) => [r.name, r.id]));
}

export async function replaceChallengeFiles(
  db: Executor,
  challengeId: number,
  fileIds: readonly number[],
): Promise<void> {
  await replaceChildRows(
    db,
    'challenge_files',
    challengeId,
    fileIds.map((file_id) => ({ challenge_id: challengeId, file_id })),
  );
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

/** Every challenge's prerequisites (ids of the challenges it requires), by challenge id. */
export async function listPrerequisites(db: Executor): Promise<Map<number, number[]>> {
  const rows = await db
    .selectFrom('challenge_prerequisites')
    .select(['challenge_id', 'requires_id'])
    .orderBy('challenge_id')
    .orderBy('requires_id')
    .execute();
  return groupBy(
    rows,
    (r) => r.challenge_id,
    (r) => r.requires_id,
  );
}

export async function replacePrerequisites(
  db: Executor,
  challengeId: number,
  requires: readonly number[],
): Promise<void> {
  await replaceChildRows(
    db,
    'challenge_prerequisites',
    challengeId,
    requires.map((requires_id) => ({ challenge_id: challengeId, requires_id })),
  );
}

/** A challenge's stored fields and attached file names (the audit log's before/after of an edit). */
export async function findChallengeForAudit(
  db: Executor,
  id: number,
): Promise<
  | (ChallengeFields & {
      is_active: number;
      files: string[];
      flags: { type: string; content: string }[];
      prerequisites: number[];
    })
  | null
> {
  const row = await db
    .selectFrom('challenges')
    .select([
      'name',
      'description',
      'category',
      'difficulty',
      'written_by',
      'points',
      'is_active',
      'max_attempts',
      'release_at',
      'scoring_type',
      'scoring_function',
      'scoring_initial',
      'scoring_minimum',
      'scoring_decay',
      'per_team',
      'per_team_on_page',
      'instance',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  // The audit log redacts every key that names a flag.
  const flags = await db
    .selectFrom('challenge_flags')
    .select(['type', 'content'])
    .where('challenge_id', '=', id)
    .orderBy('position')
    .execute();
  const prerequisites = await db
    .selectFrom('challenge_prerequisites')
    .select('requires_id')
    .where('challenge_id', '=', id)
    .orderBy('requires_id')
    .execute();
  const files = await db
    .selectFrom('challenge_files')
    .innerJoin('files', 'files.id', 'challenge_files.file_id')
    .select('files.name')
    .where('challenge_files.challenge_id', '=', id)
    .orderBy('files.name')
    .execute();
  return {
    ...row,
    files: files.map((f) => f.name),
    flags,
    prerequisites: prerequisites.map((p) => p.requires_id),
  };
}

/** Sets (or clears) the release time of several challenges in one statement. */
export async function setReleaseTimes(
  db: Executor,
  ids: readonly number[],
  releaseAt: string | null,
  updatedAt: string,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('challenges')
    .set({ release_at: releaseAt, updated_at: updatedAt })
    .where('id', 'in', ids)
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

/** A challenge's name, per-team switch and first flag (the base of a per-team challenge). */
export async function findPerTeamChallenge(
  db: Executor,
  id: number,
): Promise<{ id: number; name: string; per_team: number; base: string | null } | null> {
  const row = await db
    .selectFrom('challenges')
    .select(['id', 'name', 'per_team'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const flag = await db
    .selectFrom('challenge_flags')
    .select('content')
    .where('challenge_id', '=', id)
    .orderBy('position')
    .executeTakeFirst();
  return { ...row, base: flag?.content ?? null };
}

/**
 * The competitor a name means: the team of that name; else the user of that name, whose
 * competitor is its team (named by the team) or, while teamless, the user itself.
 */
export async function findCompetitorByName(
  db: Executor,
  key: string,
): Promise<{ kind: 'team' | 'user'; id: number; name: string } | null> {
  const team = await db
    .selectFrom('teams')
    .select(['id', 'name'])
    .where('name_key', '=', key)
    .executeTakeFirst();
  if (team) return { kind: 'team', id: team.id, name: team.name };
  const user = await db
    .selectFrom('users')
    .leftJoin('teams', 'teams.id', 'users.team_id')
    .select(['users.id', 'users.username', 'users.team_id', 'teams.name as team_name'])
    .where('users.username_key', '=', key)
    .executeTakeFirst();
  if (!user) return null;
  return user.team_id !== null && user.team_name !== null
    ? { kind: 'team', id: user.team_id, name: user.team_name }
    : { kind: 'user', id: user.id, name: user.username };
}

/** Every competitor: each team, and each user without one (the per-team flag signal's candidates). */
export async function listCompetitors(
  db: Executor,
): Promise<{ kind: 'team' | 'user'; id: number; name: string }[]> {
  const [teams, users] = await Promise.all([
    db.selectFrom('teams').select(['id', 'name']).execute(),
    db.selectFrom('users').select(['id', 'username']).where('team_id', 'is', null).execute(),
  ]);
  return [
    ...teams.map((t) => ({ kind: 'team' as const, id: t.id, name: t.name })),
    ...users.map((u) => ({ kind: 'user' as const, id: u.id, name: u.username })),
  ];
}
