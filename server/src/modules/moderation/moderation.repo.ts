import { sql } from 'kysely';
import type { Role } from '@ctf/contract';
import type { Executor } from '../../db/schema.js';

export interface ModerationState {
  id: number;
  name: string;
  is_admin: number;
  hidden: number;
  banned: number;
  moderation_reason: string | null;
}

export async function findUserModeration(db: Executor, usernameKey: string): Promise<ModerationState | null> {
  return (
    (await db
      .selectFrom('users')
      .select(['id', 'username as name', 'is_admin', 'hidden', 'banned', 'moderation_reason'])
      .where('username_key', '=', usernameKey)
      .executeTakeFirst()) ?? null
  );
}

export async function findTeamModeration(db: Executor, nameKey: string): Promise<ModerationState | null> {
  return (
    (await db
      .selectFrom('teams')
      .select(['id', 'name', sql<number>`0`.as('is_admin'), 'hidden', 'banned', 'moderation_reason'])
      .where('name_key', '=', nameKey)
      .executeTakeFirst()) ?? null
  );
}

export async function setModeration(
  db: Executor,
  table: 'users' | 'teams',
  id: number,
  patch: { hidden?: number; banned?: number; moderation_reason: string | null },
): Promise<void> {
  if (table === 'users') await db.updateTable('users').set(patch).where('id', '=', id).execute();
  else await db.updateTable('teams').set(patch).where('id', '=', id).execute();
}

export async function listMemberIds(db: Executor, teamId: number): Promise<number[]> {
  const rows = await db.selectFrom('users').select('id').where('team_id', '=', teamId).execute();
  return rows.map((r) => r.id);
}

export interface ModerationFlags {
  id: number;
  hidden: number;
  banned: number;
  moderation_reason: string | null;
}

/** Every hidden or banned user and team (few): merged into the admin lists. */
export async function listModerated(
  db: Executor,
): Promise<{ users: ModerationFlags[]; teams: ModerationFlags[] }> {
  const [users, teams] = await Promise.all([
    db
      .selectFrom('users')
      .select(['id', 'hidden', 'banned', 'moderation_reason'])
      .where((eb) => eb.or([eb('hidden', '=', 1), eb('banned', '=', 1)]))
      .execute(),
    db
      .selectFrom('teams')
      .select(['id', 'hidden', 'banned', 'moderation_reason'])
      .where((eb) => eb.or([eb('hidden', '=', 1), eb('banned', '=', 1)]))
      .execute(),
  ]);
  return { users, teams };
}

/** A user's role and competing mark, by id (set_competing). */
export async function findUserCompeting(
  db: Executor,
  id: number,
): Promise<{ id: number; username: string; role: Role; competing: number } | null> {
  return (
    (await db
      .selectFrom('users')
      .select(['id', 'username', 'role', 'competing'])
      .where('id', '=', id)
      .executeTakeFirst()) ?? null
  );
}

export async function setUserCompeting(db: Executor, id: number, competing: boolean): Promise<void> {
  await db
    .updateTable('users')
    .set({ competing: competing ? 1 : 0 })
    .where('id', '=', id)
    .execute();
}

/** The ids of the users marked as competing (few: staff who play). */
export async function listCompetingUserIds(db: Executor): Promise<Set<number>> {
  const rows = await db.selectFrom('users').select('id').where('competing', '=', 1).execute();
  return new Set(rows.map((r) => r.id));
}
