import type { Selectable } from 'kysely';
import type { AnnouncementsTable, Executor } from '../../db/schema.js';

export type AnnouncementRow = Selectable<AnnouncementsTable>;

const COLUMNS = ['id', 'title', 'body', 'body_html', 'pinned', 'created_at', 'updated_at'] as const;

/** Pinned first, then newest first (ids break ties of one instant). */
export async function listAnnouncementRows(db: Executor): Promise<AnnouncementRow[]> {
  return db
    .selectFrom('announcements')
    .select(COLUMNS)
    .orderBy('pinned', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function findAnnouncement(db: Executor, id: number): Promise<AnnouncementRow | undefined> {
  return db.selectFrom('announcements').select(COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function insertAnnouncement(db: Executor, row: Omit<AnnouncementRow, 'id'>): Promise<number> {
  const { id } = await db.insertInto('announcements').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** Answers whether the row existed. */
export async function updateAnnouncementRow(
  db: Executor,
  id: number,
  values: Pick<AnnouncementRow, 'title' | 'body' | 'body_html' | 'pinned' | 'updated_at'>,
): Promise<boolean> {
  const res = await db.updateTable('announcements').set(values).where('id', '=', id).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function deleteAnnouncementRow(db: Executor, id: number): Promise<boolean> {
  const res = await db.deleteFrom('announcements').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
