import {
  API_TOKEN_LIMITS,
  API_TOKEN_PREFIX,
  DEFAULT_TOKEN_SCOPES,
  TOKEN_SCOPES,
  scopesForRole,
  type ApiToken,
  type Role,
  type TokenScope,
} from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { badInput, conflict, notFound } from '../../lib/errors.js';
import { KeyedCache } from '../../lib/invalidation.js';
import { recordAudit, type AuditActor } from '../audit/audit.service.js';
import {
  countLiveTokens,
  deleteExpiredTokens,
  deleteTokenOf,
  findUserByTokenHash,
  insertToken,
  listTokensOf,
  lockTokenOwner,
  scopesOf,
  storedScopes,
  touchToken,
} from './api-tokens.repo.js';

/** lastUsedAt is written at most this often per token: a bot's every call must not be a write. */
export const TOKEN_USE_WRITE_INTERVAL_MS = 60_000;

/** How many tokens each process keeps in memory, like the sessions' cache. */
export const TOKEN_CACHE_SIZE = 10_000;

/** Longer than any token we hand out (prefix + 43 characters): a bigger header is not hashed. */
const TOKEN_MAX_LENGTH = 200;

const DAY_MS = 24 * 60 * 60 * 1000;

/** When a token asked for at `now` ends: the asked time, or the default lifetime; never past the cap. */
function expiryOf(now: Date, asked: string | null | undefined): string {
  if (asked == null)
    return new Date(now.getTime() + API_TOKEN_LIMITS.defaultLifetimeDays * DAY_MS).toISOString();
  const at = new Date(asked);
  if (at.getTime() <= now.getTime()) throw badInput('expiresAt must be in the future');
  if (at.getTime() > now.getTime() + API_TOKEN_LIMITS.maxLifetimeDays * DAY_MS)
    throw badInput(
      `A token lives at most ${API_TOKEN_LIMITS.maxLifetimeDays} days: choose an earlier expiry.`,
    );
  return at.toISOString();
}

/** The scopes asked for (the default when none), in the table's order; refused past the role. */
function scopesFor(role: Role, asked: readonly TokenScope[] | undefined): TokenScope[] {
  const wanted = new Set(asked ?? DEFAULT_TOKEN_SCOPES);
  const allowed = scopesForRole(role);
  const beyond = [...wanted].filter((s) => !allowed.includes(s));
  if (beyond.length > 0)
    throw badInput(
      `Your role (${role}) cannot give a token the scope${beyond.length > 1 ? 's' : ''} ${beyond.join(', ')}.`,
    );
  return TOKEN_SCOPES.filter((s) => wanted.has(s));
}

/**
 * Creates a named token for the user, answered once: only its sha256 is stored. The user's
 * unexpired tokens are counted with their row locked, so two creations at once cannot both take
 * the last place. Audited: a token is a way into the account.
 */
export async function createApiToken(
  ctx: AppContext,
  user: Pick<UserRow, 'id' | 'username' | 'role'>,
  input: { name: string; expiresAt?: string | null | undefined; scopes?: TokenScope[] | undefined },
): Promise<{ _id: string; token: string }> {
  const now = ctx.clock.now();
  const expiresAt = expiryOf(now, input.expiresAt);
  const scopes = scopesFor(user.role, input.scopes);
  const token = `${API_TOKEN_PREFIX}${randomToken(32)}`;
  const nowIso = now.toISOString();
  const actor: AuditActor = { id: user.id, username: user.username };
  const id = await ctx.database.transaction(async (trx) => {
    await lockTokenOwner(trx, user.id, ctx.database.dialect === 'postgres');
    await deleteExpiredTokens(trx, user.id, nowIso);
    if ((await countLiveTokens(trx, user.id, nowIso)) >= API_TOKEN_LIMITS.perUser) {
      throw conflict(
        `You already have ${API_TOKEN_LIMITS.perUser} API tokens: revoke one before creating another.`,
      );
    }
    const tokenId = await insertToken(trx, {
      user_id: user.id,
      name: input.name,
      token_hash: sha256(token),
      created_at: nowIso,
      expires_at: expiresAt,
      scopes: storedScopes(scopes),
    });
    // NOTE: no detail key may contain "token": the audit log redacts such values.
    await recordAudit(trx, {
      actor,
      action: 'token.create',
      target: `API token '${input.name}' (#${tokenId})`,
      details: { scopes, expires_at: expiresAt },
      at: now,
    });
    return tokenId;
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
    scopes: scopesOf(r.scopes),
    lastUsedAt: r.last_used_at,
  }));
}

/**
 * Revokes one of the user's tokens (audited). The 'sessions' topic drops every process's kept
 * tokens (and sessions), so the next request bearing it is refused wherever it lands.
 */
export async function revokeApiToken(
  ctx: AppContext,
  user: Pick<UserRow, 'id' | 'username'>,
  tokenId: number,
): Promise<void> {
  const at = ctx.clock.now();
  await ctx.database.transaction(async (trx) => {
    const gone = await deleteTokenOf(trx, user.id, tokenId);
    if (!gone) throw notFound('Token not found');
    await recordAudit(trx, {
      actor: { id: user.id, username: user.username },
      action: 'token.revoke',
      target: `API token '${gone.name}' (#${tokenId})`,
      at,
    });
  });
  ctx.bus.publish('sessions');
}

/** A token's user and what the token may do. */
export interface TokenCaller {
  user: UserRow;
  scopes: readonly TokenScope[];
}

type TokenEntry = {
  caller: TokenCaller;
  tokenId: number;
  expiresAt: string;
  /** When this process last knew a use was recorded (ms): the write happens once a minute at most. */
  lastWrittenMs: number;
} | null;

const tokenCaches = new WeakMap<AppContext, KeyedCache<string, TokenEntry>>();

/**
 * Tokens in memory, by hash, dropped on the topics that drop sessions: a user or membership
 * changed ('users', 'teams': a ban, a removal, a role), a session or token ended ('sessions'), in
 * this process at once and in the others through the bus. While the bus cannot hear the other
 * processes, nothing kept is trusted (KeyedCache's trust check): every lookup reads the database.
 */
function tokenCache(ctx: AppContext): KeyedCache<string, TokenEntry> {
  let cache = tokenCaches.get(ctx);
  if (!cache) {
    cache = new KeyedCache(ctx.bus, ['users', 'teams', 'sessions'], TOKEN_CACHE_SIZE, null, () =>
      ctx.bus.hearsOthers(),
    );
    tokenCaches.set(ctx, cache);
  }
  return cache;
}

/**
 * The user behind a personal token with its scopes, as a session answers the user (the same
 * UserRow, so roles and rate limits apply alike), or null when it is unknown, expired, revoked, or
 * its user banned or removed.
 */
export async function findTokenUser(ctx: AppContext, token: string): Promise<TokenCaller | null> {
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
      return {
        caller: { user: found.user, scopes: scopesOf(found.scopes) },
        tokenId: found.tokenId,
        expiresAt: found.expiresAt,
        lastWrittenMs,
      };
    },
    (found) => found !== null,
  );
  // A kept token still ends on time.
  if (!entry || entry.expiresAt <= nowIso) return null;
  if (now.getTime() - entry.lastWrittenMs >= TOKEN_USE_WRITE_INTERVAL_MS) {
    entry.lastWrittenMs = now.getTime();
    const staleBefore = new Date(now.getTime() - TOKEN_USE_WRITE_INTERVAL_MS).toISOString();
    await touchToken(ctx.database.db, entry.tokenId, nowIso, staleBefore);
  }
  return entry.caller;
}
