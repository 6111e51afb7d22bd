import type { AppContext } from '../../context.js';
import type { Executor, UserRow } from '../../db/schema.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { DomainError } from '../../lib/errors.js';
import { EXPIRED_ROWS_SWEEP_MS, atMostEvery } from '../../lib/housekeeping.js';
import { KeyedCache } from '../../lib/invalidation.js';
import {
  deleteExpiredSessions,
  deleteSession,
  deleteSessionsOfUsers,
  findBan,
  findUserBySessionHash,
  insertSession,
} from './sessions.repo.js';

/** The login refusal of a banned user (or a member of a banned team), with the admin's reason. */
async function assertMayLogIn(ctx: AppContext, userId: number): Promise<void> {
  const ban = await findBan(ctx.database.db, userId);
  if (!ban) return;
  // The reason is the admin's own words: end it with a full stop so the next sentence reads apart.
  const reason = ban.reason ? ` Reason: ${ban.reason}${/[.!?]$/.test(ban.reason) ? '' : '.'}` : '';
  throw new DomainError(
    'banned',
    `This account is banned from the competition by the organisers.${reason} Contact them if you think this is a mistake.`,
  );
}

/** Sessions last the length of a long event; logout ends them at once. */
export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

/**
 * Starts a session: a fresh random 256-bit token (so a login never reuses a cookie that existed
 * before it: no fixation), of which only the hash is stored.
 */
export async function createSession(
  ctx: AppContext,
  userId: number,
): Promise<{ token: string; expires: Date }> {
  // A banned user (or a member of a banned team) is told why, and gets no session.
  await assertMayLogIn(ctx, userId);
  const token = randomToken(32);
  const now = ctx.clock.now();
  const expires = new Date(now.getTime() + SESSION_TTL_MS);
  await insertSession(ctx.database.db, {
    token_hash: sha256(token),
    user_id: userId,
    expires_at: expires.toISOString(),
    created_at: now.toISOString(),
  });
  // Housekeeping rides on logins, at most once a minute (an expired session is refused where it is
  // read, so one kept a minute longer opens nothing).
  if (expiredSessionsSweep(ctx, now.getTime()))
    await deleteExpiredSessions(ctx.database.db, now.toISOString());
  return { token, expires };
}

const expiredSessionsSweep = atMostEvery(EXPIRED_ROWS_SWEEP_MS);

/** How many live sessions each process keeps in memory (a few hundred bytes each). */
export const SESSION_CACHE_SIZE = 10_000;

/** A kept session: its user, and when it ends (epoch ms, compared without making a date text). */
type SessionEntry = { user: UserRow; expiresAtMs: number } | null;
const sessionCaches = new WeakMap<AppContext, KeyedCache<string, SessionEntry>>();

/**
 * Sessions in memory, by token hash: every logged-in call looks one up. Dropped whenever a user
 * or a membership changes ('users', 'teams': role, removal, team) or a session ends or a login
 * refreshes a profile ('sessions'), in this process at once and in the others through the bus,
 * so a removed user or an ended session is refused at the next request.
 */
function sessionCache(ctx: AppContext): KeyedCache<string, SessionEntry> {
  let cache = sessionCaches.get(ctx);
  if (!cache) {
    // While the bus cannot hear the others, every lookup reads the database (KeyedCache's trust).
    cache = new KeyedCache(ctx.bus, ['users', 'teams', 'sessions'], SESSION_CACHE_SIZE, null, () =>
      ctx.bus.hearsOthers(),
    );
    sessionCaches.set(ctx, cache);
  }
  return cache;
}

/**
 * The user behind a session token, or null when it is unknown, expired or the user was removed.
 * A session kept in memory is answered at once, without a promise (every signed-in request asks);
 * otherwise the database is read.
 */
export function findSessionUser(ctx: AppContext, token: string): UserRow | null | Promise<UserRow | null> {
  if (token.length > 200) return null;
  const hash = sha256(token);
  const cache = sessionCache(ctx);
  const kept = cache.peek(hash);
  if (kept !== undefined) return liveUser(ctx, kept);
  // Unknown tokens are not kept: made-up cookies must not push real sessions out.
  return cache
    .get(
      hash,
      async () => {
        const found = await findUserBySessionHash(ctx.database.db, hash, ctx.clock.now().toISOString());
        return found && { user: found.user, expiresAtMs: Date.parse(found.expiresAt) };
      },
      (found) => found !== null,
    )
    .then((entry) => liveUser(ctx, entry));
}

/** A kept session still ends on time. */
function liveUser(ctx: AppContext, entry: SessionEntry): UserRow | null {
  return entry && entry.expiresAtMs > ctx.clock.now().getTime() ? entry.user : null;
}

export async function endSession(ctx: AppContext, token: string): Promise<void> {
  await deleteSession(ctx.database.db, sha256(token));
  ctx.bus.publish('sessions');
}

/**
 * Ends every session of these users inside the caller's transaction (a ban); the caller publishes
 * 'sessions' after commit, so every process drops its kept copies at the next request.
 */
export async function endSessionsOfUsers(trx: Executor, userIds: readonly number[]): Promise<void> {
  await deleteSessionsOfUsers(trx, userIds);
}
