import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { deleteExpiredSessions, deleteSession, findUserBySessionHash, insertSession } from './sessions.repo.js';

/** Sessions last the length of a long event; logout ends them at once. */
export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

/**
 * Starts a session: a fresh random 256-bit token (so a login never reuses a cookie that existed
 * before it: no fixation), of which only the hash is stored.
 */
export async function createSession(ctx: AppContext, userId: number): Promise<{ token: string; expires: Date }> {
  const token = randomToken(32);
  const now = ctx.clock.now();
  const expires = new Date(now.getTime() + SESSION_TTL_MS);
  await insertSession(ctx.database.db, {
    token_hash: sha256(token),
    user_id: userId,
    expires_at: expires.toISOString(),
    created_at: now.toISOString(),
  });
  // Housekeeping rides on logins, which are rare compared with reads.
  await deleteExpiredSessions(ctx.database.db, now.toISOString());
  return { token, expires };
}

/** The user behind a session token, or null when it is unknown, expired or the user was removed. */
export async function findSessionUser(ctx: AppContext, token: string): Promise<UserRow | null> {
  if (token.length > 200) return null;
  return findUserBySessionHash(ctx.database.db, sha256(token), ctx.clock.now().toISOString());
}

export async function endSession(ctx: AppContext, token: string): Promise<void> {
  await deleteSession(ctx.database.db, sha256(token));
}
