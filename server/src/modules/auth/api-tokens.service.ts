import { API_TOKEN_LIMITS, API_TOKEN_PREFIX, type ApiToken } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { badInput, conflict, notFound } from '../../lib/errors.js';
import { KeyedCache } from '../../lib/invalidation.js';
import {
  countLiveTokens,
  deleteExpiredTokens,
  deleteTokenOf,
  findUserByTokenHash,
  insertToken,
  listTokensOf,
  lockTokenOwner,
  touchToken,
} from './api-tokens.repo.js';

/** lastUsedAt is written at most this often per token: a bot's every call must not be a write. */
export const TOKEN_USE_WRITE_INTERVAL_MS = 60_000;

/** How many tokens each process keeps in memory, like the sessions' cache. */
export const TOKEN_CACHE_SIZE = 10_000;

/** Longer than any token we hand out (prefix + 43 characters): a bigger header is not hashed. */
const TOKEN_MAX_LENGTH = 200;

/**
 * Creates a named token for the user, answered once: only its sha256 is stored. The user's
 * unexpired tokens are counted with their row locked, so two creations at once cannot both take
 * the last place.
 */
export async function createApiToken(
  ctx: AppContext,
  userId: number,
  input: { name: string; expiresAt?: string | null | undefined },
): Promise<{ _id: string; token: string }> {
  const now = ctx.clock.now();
  let expiresAt: string | null = null;
  if (input.expiresAt != null) {
    const at = new Date(input.expiresAt);
    if (at.getTime() <= now.getTime()) throw badInput('expiresAt must be in the future');
    expiresAt = at.toISOString();
  }
  const token = `${API_TOKEN_PREFIX}${randomToken(32)}`;
  const nowIso = now.toISOString();
  const id = await ctx.database.transaction(async (trx) => {
    await lockTokenOwner(trx, userId, ctx.database.dialect === 'postgres');
    await deleteExpiredTokens(trx, userId, nowIso);
    if ((await countLiveTokens(trx, userId, nowIso)) >= API_TOKEN_LIMITS.perUser) {
      throw conflict(
        `You already have ${API_TOKEN_LIMITS.perUser} API tokens: revoke one before creating another.`,
      );
    }
    return insertToken(trx, {
      user_id: userId,
      name: input.name,
      token_hash: sha256(token),
      created_at: nowIso,
      expires_at: expiresAt,
    });
  });
  return { _id: String(id), token };
}

export async function listApiTokens(ctx: AppContext, userId: number): Promise<ApiToken[]> {
  const rows = await listTokensOf(ctx.database.db, userId);
  return rows.map((r) => ({
    _id: String(r.id),
    name: r.name,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    lastUsedAt: r.last_used_at,
  }));
}

/**
 * Revokes one of the user's tokens. The 'sessions' topic drops every process's kept tokens (and
 * sessions), so the next request bearing it is refused wherever it lands.
 */
export async function revokeApiToken(ctx: AppContext, userId: number, tokenId: number): Promise<void> {
  if (!(await deleteTokenOf(ctx.database.db, userId, tokenId))) throw notFound('Token not found');
  ctx.bus.publish('sessions');
}

type TokenEntry = {
  user: UserRow;
  tokenId: number;
  expiresAt: string | null;
  /** When this process last knew a use was recorded (ms): the write happens once a minute at most. */
  lastWrittenMs: number;
} | null;

const tokenCaches = new WeakMap<AppContext, KeyedCache<string, TokenEntry>>();

/**
 * Tokens in memory, by hash, dropped on the topics that drop sessions: a user or membership
 * changed ('users', 'teams': a ban, a removal, a role), a session or token ended ('sessions'), in
 * this process at once and in the others through the bus.
 */
function tokenCache(ctx: AppContext): KeyedCache<string, TokenEntry> {
  let cache = tokenCaches.get(ctx);
  if (!cache) {
    cache = new KeyedCache(ctx.bus, ['users', 'teams', 'sessions'], TOKEN_CACHE_SIZE);
    tokenCaches.set(ctx, cache);
  }
  return cache;
}

/**
 * The user behind a personal token, as a session answers it (the same UserRow, so roles and rate
 * limits apply alike), or null when it is unknown, expired, revoked, or its user banned or removed.
 */
export async function findTokenUser(ctx: AppContext, token: string): Promise<UserRow | null> {
  if (token.length > TOKEN_MAX_LENGTH || !token.startsWith(API_TOKEN_PREFIX)) return null;
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const hash = sha256(token);
  // Unknown tokens are not kept: made-up headers must not push real tokens out.
  const entry = await tokenCache(ctx).get(
    hash,
    async () => {
      const found = await findUserByTokenHash(ctx.database.db, hash, nowIso);
      if (!found) return null;
      const lastWrittenMs = found.lastUsedAt ? Date.parse(found.lastUsedAt) : 0;
      return { user: found.user, tokenId: found.tokenId, expiresAt: found.expiresAt, lastWrittenMs };
    },
    (found) => found !== null,
  );
  // A kept token still ends on time.
  if (!entry || (entry.expiresAt !== null && entry.expiresAt <= nowIso)) return null;
  if (now.getTime() - entry.lastWrittenMs >= TOKEN_USE_WRITE_INTERVAL_MS) {
    entry.lastWrittenMs = now.getTime();
    const staleBefore = new Date(now.getTime() - TOKEN_USE_WRITE_INTERVAL_MS).toISOString();
    await touchToken(ctx.database.db, entry.tokenId, nowIso, staleBefore);
  }
  return entry.user;
}
