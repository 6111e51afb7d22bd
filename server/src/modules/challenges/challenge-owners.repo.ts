import type { Executor } from '../../db/schema.js';
import { groupBy } from '../../lib/group-by.js';

// Who owns which challenge (migration 0019_o): the authors besides admins who read its answers.

/** Every challenge's owners by challenge id, by name. */
export async function listChallengeOwners(
  db: Executor,
): Promise<Map<number, { _id: string; username: string }[]>> {
  const rows = await db
    .selectFrom('challenge_owners')
    .innerJoin('users', 'users.id', 'challenge_owners.user_id')
    .select(['challenge_owners.challenge_id', 'users.id', 'users.username'])
    .orderBy('challenge_owners.challenge_id')
    .orderBy('users.username_key')
    .execute();
  return groupBy(
    rows,
    (r) => r.challenge_id,
    (r) => ({ _id: String(r.id), username: r.username }),
  );
}

/** The ids of the challenges a user owns. */
export async function listOwnedChallengeIds(db: Executor, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('challenge_owners')
    .select('challenge_id')
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => r.challenge_id);
}

/** Makes a challenge's owners exactly these users. */
export async function replaceChallengeOwners(
  db: Executor,
  challengeId: number,
  userIds: readonly number[],
): Promise<void> {
  await db.deleteFrom('challenge_owners').where('challenge_id', '=', challengeId).execute();
  if (userIds.length === 0) return;
  await db
    .insertInto('challenge_owners')
    .values(userIds.map((user_id) => ({ challenge_id: challengeId, user_id })))
    .execute();
}

/** The ids among these that are users. */
export async function findExistingUserIds(db: Executor, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('users').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * The challenges each of these files belongs to, as a challenge file or a solution file (a file
 * no challenge uses is in neither list).
 */
export async function listChallengesOfFiles(
  db: Executor,
  fileIds: readonly number[],
): Promise<Map<number, number[]>> {
  if (fileIds.length === 0) return new Map();
  const [attached, solution] = await Promise.all([
    db
      .selectFrom('challenge_files')
      .select(['file_id', 'challenge_id'])
      .where('file_id', 'in', fileIds)
      .execute(),
    db
      .selectFrom('challenge_solution_files')
      .select(['file_id', 'challenge_id'])
      .where('file_id', 'in', fileIds)
      .execute(),
  ]);
  return groupBy(
    [...attached, ...solution],
    (r) => r.file_id,
    (r) => r.challenge_id,
  );
}

/** The ids of one challenge's owners, ascending (the audit row's before). */
export async function listOwnerIdsOf(db: Executor, challengeId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('challenge_owners')
    .select('user_id')
    .where('challenge_id', '=', challengeId)
    .orderBy('user_id')
    .execute();
  return rows.map((r) => r.user_id);
}
