import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';

export async function insertFile(
  db: Executor,
  row: { name: string; size: number; created_at: string },
): Promise<number> {
  const inserted = await db.insertInto('files').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

/** The stored name equal to `name` ignoring case, if any (so two names differing in case never coexist). */
export async function findFileNameLike(db: Executor, name: string): Promise<string | null> {
  const row = await db
    .selectFrom('files')
    .select('name')
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
  return row?.name ?? null;
}

/** The row of exactly this stored name. */
export async function findFileByName(
  db: Executor,
  name: string,
): Promise<{ id: number; name: string } | null> {
  return (
    (await db.selectFrom('files').select(['id', 'name']).where('name', '=', name).executeTakeFirst()) ?? null
  );
}

export async function listFileRows(db: Executor): Promise<{ id: number; name: string }[]> {
  return db.selectFrom('files').select(['id', 'name']).orderBy('name').execute();
}

/** Deletes the row; challenge_files rows go with it (ON DELETE CASCADE). True when a row existed. */
export async function deleteFileById(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('files').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether this stored file is attached to at least one active challenge (what participants may fetch). */
export async function activeChallengesOfFile(db: Executor, fileId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('challenge_files')
    .innerJoin('challenges', 'challenges.id', 'challenge_files.challenge_id')
    .select('challenge_files.challenge_id')
    .where('challenge_files.file_id', '=', fileId)
    .where('challenges.is_active', '=', 1)
    .execute();
  return rows.map((r) => r.challenge_id);
}

/** The row whose name equals `name` ignoring case, with its id (the import's name check). */
export async function findFileRowLike(
  db: Executor,
  name: string,
): Promise<{ id: number; name: string } | null> {
  return (
    (await db
      .selectFrom('files')
      .select(['id', 'name'])
      .where(sql<string>`lower(name)`, '=', name.toLowerCase())
      .executeTakeFirst()) ?? null
  );
}

export async function setFileSize(db: Executor, id: number, size: number): Promise<void> {
  await db.updateTable('files').set({ size }).where('id', '=', id).execute();
}

/** Every challenge (active or not) the file is attached to. */
export async function challengesOfFile(db: Executor, fileId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('challenge_files')
    .select('challenge_id')
    .where('file_id', '=', fileId)
    .execute();
  return rows.map((r) => r.challenge_id);
}
