import type { Executor, UserRow } from '../../db/schema.js';
import { prepared } from '../../db/prepared.js';
import { USER_COLUMNS } from '../../db/user-columns.js';

type SessionRow = { token_hash: string; user_id: number; expires_at: string; created_at: string };

const insertSessionQuery = prepared<SessionRow, never>((db, bind) =>
  db.insertInto('sessions').values({
    token_hash: bind('token_hash'),
    user_id: bind('user_id'),
    expires_at: bind('expires_at'),
    created_at: bind('created_at'),
  }),
);

export async function insertSession(db: Executor, row: SessionRow): Promise<void> {
  await insertSessionQuery.run(db, row);
}

const sessionUserQuery = prepared<{ tokenHash: string; nowIso: string }, UserRow & { expires_at: string }>(
  (db, bind) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .leftJoin('teams', 'teams.id', 'users.team_id')
      .select([...USER_COLUMNS, 'sessions.expires_at'])
      .where('sessions.token_hash', '=', bind('tokenHash'))
      .where('sessions.expires_at', '>', bind('nowIso'))
      // A banned user, or a member of a banned team, has no session (issue 18).
      .where('users.banned', '=', 0)
      .where((eb) => eb.or([eb('teams.banned', 'is', null), eb('teams.banned', '=', 0)])),
);

/** The user of an unexpired session, with the session's end. */
export async function findUserBySessionHash(
  db: Executor,
  tokenHash: string,
  nowIso: string,
): Promise<{ user: UserRow; expiresAt: string } | null> {
  const row = await sessionUserQuery.first(db, { tokenHash, nowIso });
  if (!row) return null;
  const { expires_at: expiresAt, ...user } = row;
  return { user, expiresAt };
}

export async function deleteSession(db: Executor, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

const deleteExpiredSessionsQuery = prepared<{ nowIso: string }, never>((db, bind) =>
  db.deleteFrom('sessions').where('expires_at', '<=', bind('nowIso')),
);

export async function deleteExpiredSessions(db: Executor, nowIso: string): Promise<void> {
  await deleteExpiredSessionsQuery.run(db, { nowIso });
}

/** Ends every session of these users (a ban). */
export async function deleteSessionsOfUsers(db: Executor, userIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  await db.deleteFrom('sessions').where('user_id', 'in', userIds).execute();
}

/**
 * Why a user may not log in: their own ban or their current team's, with its reason; null when
 * they may.
 */
export async function findBan(db: Executor, userId: number): Promise<{ reason: string | null } | null> {
  const row = await db
    .selectFrom('users')
    .leftJoin('teams', 'teams.id', 'users.team_id')
    .select([
      'users.banned as user_banned',
      'users.moderation_reason as user_reason',
      'teams.banned as team_banned',
      'teams.moderation_reason as team_reason',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  if (row.user_banned === 1) return { reason: row.user_reason };
  if (row.team_banned === 1) return { reason: row.team_reason };
  return null;
}
