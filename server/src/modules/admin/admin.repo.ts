import type { Role } from '@ctf/contract';
import type { Dialect } from '../../db/connect.js';
import type { Executor } from '../../db/schema.js';
import { roleColumns } from '../../db/user-role.js';

export async function findUserBrief(
  db: Executor,
  id: number,
): Promise<{ id: number; username: string; is_admin: number; role: Role } | null> {
  return (
    (await db
      .selectFrom('users')
      .select(['id', 'username', 'is_admin', 'role'])
      .where('id', '=', id)
      .executeTakeFirst()) ?? null
  );
}

export async function findUserBriefByKey(
  db: Executor,
  usernameKey: string,
): Promise<{ id: number; username: string; is_admin: number; role: Role } | null> {
  return (
    (await db
      .selectFrom('users')
      .select(['id', 'username', 'is_admin', 'role'])
      .where('username_key', '=', usernameKey)
      .executeTakeFirst()) ?? null
  );
}

/**
 * The ids of every admin, locked until the transaction ends on PostgreSQL (FOR UPDATE), so two
 * admins demoting each other at once cannot both pass the "not the last admin" check. SQLite
 * needs no lock: its write transactions are serial (BEGIN IMMEDIATE).
 */
export async function lockAdminIds(trx: Executor, dialect: Dialect): Promise<number[]> {
  const rows = await trx
    .selectFrom('users')
    .select('id')
    .where('is_admin', '=', 1)
    .orderBy('id')
    .$if(dialect === 'postgres', (q) => q.forUpdate())
    .execute();
  return rows.map((r) => r.id);
}

/** Sets a user's role (and is_admin with it: db/user-role.ts). */
export async function setUserRole(db: Executor, id: number, role: Role): Promise<void> {
  await db.updateTable('users').set(roleColumns(role)).where('id', '=', id).execute();
}

/** The login identities of a user (to tell whether ADMINS names the account). */
export async function listIdentities(
  db: Executor,
  userId: number,
): Promise<{ provider: string; provider_user_id: string }[]> {
  return db
    .selectFrom('identities')
    .select(['provider', 'provider_user_id'])
    .where('user_id', '=', userId)
    .execute();
}

/**
 * Deletes the user row; sessions, identities, solves, ratings and join requests go with it
 * (ON DELETE CASCADE). True when a row existed.
 */
export async function deleteUserRow(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
