import { prepared } from '../../db/prepared.js';
import type { Executor } from '../../db/schema.js';

export type OAuthStateRow = {
  state_hash: string;
  provider: string;
  code_verifier: string;
  expires_at: string;
  link_user_id: number | null;
};

const insertStateQuery = prepared<OAuthStateRow, never>((db, bind) =>
  db.insertInto('oauth_states').values({
    state_hash: bind('state_hash'),
    provider: bind('provider'),
    code_verifier: bind('code_verifier'),
    expires_at: bind('expires_at'),
    link_user_id: bind('link_user_id'),
  }),
);

export async function insertOAuthState(
  db: Executor,
  row: Omit<OAuthStateRow, 'link_user_id'> & { link_user_id?: number | null },
): Promise<void> {
  await insertStateQuery.run(db, { ...row, link_user_id: row.link_user_id ?? null });
}

const takeStateQuery = prepared<{ stateHash: string }, Omit<OAuthStateRow, 'state_hash'>>((db, bind) =>
  db
    .deleteFrom('oauth_states')
    .where('state_hash', '=', bind('stateHash'))
    .returning(['provider', 'code_verifier', 'expires_at', 'link_user_id']),
);

/** Takes a state out of the store: whoever deletes it first owns it, so a state works once. */
export async function takeOAuthState(
  db: Executor,
  stateHash: string,
): Promise<Omit<OAuthStateRow, 'state_hash'> | null> {
  return (await takeStateQuery.first(db, { stateHash })) ?? null;
}

const deleteExpiredStatesQuery = prepared<{ nowIso: string }, never>((db, bind) =>
  db.deleteFrom('oauth_states').where('expires_at', '<=', bind('nowIso')),
);

export async function deleteExpiredOAuthStates(db: Executor, nowIso: string): Promise<void> {
  await deleteExpiredStatesQuery.run(db, { nowIso });
}
