import type { Executor, UserRow } from '../../db/schema.js';

export async function insertSession(
  db: Executor,
  row: { token_hash: string; user_id: number; expires_at: string; created_at: string },
): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

/** The user of an unexpired session, with the session's end. */
export async function findUserBySessionHash(
  db: Executor,
  tokenHash: string,
  nowIso: string,
): Promise<{ user: UserRow; expiresAt: string } | null> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'users.id',
      'users.username',
      'users.username_key',
      'users.avatar_url',
      'users.email',
      'users.is_admin',
      'users.team_id',
      'users.team_joined_at',
      'users.created_at',
      'users.division_id',
      'sessions.expires_at',
    ])
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.expires_at', '>', nowIso)
    .executeTakeFirst();
  if (!row) return null;
  const { expires_at: expiresAt, ...user } = row;
  return { user, expiresAt };
}

export async function deleteSession(db: Executor, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

export async function deleteExpiredSessions(db: Executor, nowIso: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', nowIso).execute();
}
