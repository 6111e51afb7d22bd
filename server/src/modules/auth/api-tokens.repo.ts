import type { TokenScope } from '@ctf/contract';
import type { ApiTokensTable, Executor, UserRow } from '../../db/schema.js';
import { USER_COLUMNS } from '../../db/user-columns.js';

type TokenRow = Pick<ApiTokensTable, 'name' | 'created_at' | 'last_used_at'> & {
  id: number;
  expires_at: string;
  scopes: string;
};

/** Scopes as stored: space-separated. */
export const storedScopes = (scopes: readonly TokenScope[]): string => scopes.join(' ');
export const scopesOf = (stored: string): TokenScope[] =>
  stored.split(' ').filter((s) => s !== '') as TokenScope[];

/**
 * Locks the user's row until the transaction ends on PostgreSQL (FOR UPDATE), so two creations by
 * one user count their tokens one after the other; SQLite's writers are serial already.
 */
export async function lockTokenOwner(trx: Executor, userId: number, postgres: boolean): Promise<void> {
  await trx
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .$if(postgres, (q) => q.forUpdate())
    .execute();
}

/** The user's tokens that still work (not expired), which count against the cap. */
export async function countLiveTokens(db: Executor, userId: number, nowIso: string): Promise<number> {
  const row = await db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('expires_at', '>', nowIso)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertToken(
  db: Executor,
  row: {
    user_id: number;
    name: string;
    token_hash: string;
    created_at: string;
    expires_at: string;
    scopes: string;
  },
): Promise<number> {
  const inserted = await db.insertInto('api_tokens').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

/** Expired tokens (and any without an expiry, which no longer work) go when their owner makes a new one. */
export async function deleteExpiredTokens(db: Executor, userId: number, nowIso: string): Promise<void> {
  await db
    .deleteFrom('api_tokens')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '<=', nowIso)]))
    .execute();
}

/** The user's tokens, newest first. */
export async function listTokensOf(db: Executor, userId: number): Promise<TokenRow[]> {
  return db
    .selectFrom('api_tokens')
    .select(['id', 'name', 'created_at', 'expires_at', 'last_used_at', 'scopes'])
    .where('user_id', '=', userId)
    .where('expires_at', 'is not', null)
    .orderBy('id', 'desc')
    .$narrowType<{ expires_at: string }>()
    .execute();
}

/** Deletes one of the user's tokens, answering its name; null when the user has no token of that id. */
export async function deleteTokenOf(
  db: Executor,
  userId: number,
  tokenId: number,
): Promise<{ name: string } | null> {
  const row = await db
    .deleteFrom('api_tokens')
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .returning('name')
    .executeTakeFirst();
  return row ?? null;
}

/**
 * The user of a token that works now (unexpired, its user neither banned nor in a banned team),
 * in the session lookup's shape, with the token's id, expiry, scopes and last use.
 */
export async function findUserByTokenHash(
  db: Executor,
  tokenHash: string,
  nowIso: string,
): Promise<{
  user: UserRow;
  tokenId: number;
  expiresAt: string;
  scopes: string;
  lastUsedAt: string | null;
} | null> {
  const row = await db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .leftJoin('teams', 'teams.id', 'users.team_id')
    .select([
      ...USER_COLUMNS,
      'api_tokens.id as token_id',
      'api_tokens.expires_at as token_expires_at',
      'api_tokens.scopes as token_scopes',
      'api_tokens.last_used_at as token_last_used_at',
    ])
    .where('api_tokens.token_hash', '=', tokenHash)
    // A row without an expiry (older than scopes) is refused: every token expires.
    .where('api_tokens.expires_at', '>', nowIso)
    // The same refusal as a session's: a banned user, or a member of a banned team.
    .where('users.banned', '=', 0)
    .where((eb) => eb.or([eb('teams.banned', 'is', null), eb('teams.banned', '=', 0)]))
    .executeTakeFirst();
  if (!row) return null;
  const {
    token_id: tokenId,
    token_expires_at: expiresAt,
    token_scopes: scopes,
    token_last_used_at: lastUsedAt,
    ...user
  } = row;
  return { user, tokenId, expiresAt: expiresAt!, scopes, lastUsedAt };
}

/**
 * Records a use, unless one was recorded after `staleBeforeIso` (another process may have written
 * it meanwhile): at most one write a minute per token, whatever the number of processes.
 */
export async function touchToken(
  db: Executor,
  tokenId: number,
  nowIso: string,
  staleBeforeIso: string,
): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set({ last_used_at: nowIso })
    .where('id', '=', tokenId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', staleBeforeIso)]))
    .execute();
}
