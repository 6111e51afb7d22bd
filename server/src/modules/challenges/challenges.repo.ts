import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { ScoringColumns } from '../scoreboard/scoring-columns.js';

// The challenge rows themselves. Their flags, files and prerequisites: challenge-parts.repo.ts;
// the solves and attempts counted against them: challenge-solves.repo.ts.

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
export type OptionalChallengeFields =
  'max_attempts' | 'release_at' | 'per_team' | 'per_team_on_page' | 'instance';

/** The authoring fields the admin list shows beside the public ones. */
export async function listAuthoringFields(db: Executor): Promise<
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

/** Every challenge's scoring columns by id (the admin view shows the parameters). */
export async function listChallengeScorings(db: Executor): Promise<Map<number, ScoringColumns>> {
  const rows = await db
    .selectFrom('challenges')
    .select(['id', 'scoring_type', 'scoring_function', 'scoring_initial', 'scoring_minimum', 'scoring_decay'])
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** Every challenge's release time (null: released), for the public list's schedule. */
export async function listReleaseTimes(db: Executor): Promise<Map<number, string | null>> {
  const rows = await db.selectFrom('challenges').select(['id', 'release_at']).execute();
  return new Map(rows.map((r) => [r.id, r.release_at]));
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

export async function countChallenges(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('challenges')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
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

/** A challenge's stored instance definition (JSON text, null: none); undefined: no challenge. */
export async function findStoredInstance(db: Executor, id: number): Promise<string | null | undefined> {
  const row = await db.selectFrom('challenges').select('instance').where('id', '=', id).executeTakeFirst();
  return row?.instance;
}
