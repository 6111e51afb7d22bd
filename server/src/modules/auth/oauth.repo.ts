import type { Executor } from '../../db/schema.js';

export async function insertOAuthState(
  db: Executor,
  row: {
    state_hash: string;
    provider: string;
    code_verifier: string;
    expires_at: string;
    link_user_id?: number | null;
  },
): Promise<void> {
  await db.insertInto('oauth_states').values(row).execute();
}

/** Takes a state out of the store: whoever deletes it first owns it, so a state works once. */
export async function takeOAuthState(
  db: Executor,
  stateHash: string,
): Promise<{
  provider: string;
  code_verifier: string;
  expires_at: string;
  link_user_id: number | null;
} | null> {
  const row = await db
    .deleteFrom('oauth_states')
    .where('state_hash', '=', stateHash)
    .returning(['provider', 'code_verifier', 'expires_at', 'link_user_id'])
    .executeTakeFirst();
  return row ?? null;
}

export async function deleteExpiredOAuthStates(db: Executor, nowIso: string): Promise<void> {
  await db.deleteFrom('oauth_states').where('expires_at', '<=', nowIso).execute();
}
