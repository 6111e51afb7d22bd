import type { Insertable } from 'kysely';
import type { Database, Executor } from '../../db/schema.js';
import { groupBy } from '../../lib/group-by.js';

// What hangs off a challenge: its flags, attached files and prerequisites.

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
