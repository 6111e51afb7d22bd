import { sql, type Kysely } from 'kysely';

/** How long a token made before scopes existed goes on working after the upgrade. */
const UPGRADE_LIFETIME_MS = 90 * 24 * 60 * 60 * 1000;

/**
 * Token scopes and lifetimes (docs/decisions/0015-token-scopes.md): api_tokens.scopes holds the
 * token's scopes, space-separated ('read play').
 *
 * NOTE: what existing tokens become. A token made before this upgrade could do everything its user
 * could, for ever. It now gets `read` and `play` (an author's also `author`, so a CI import goes on
 * working), never `admin`: an admin makes a new token with that scope, signed in. Every existing
 * token also ends 90 days after the upgrade at the latest (one that ended sooner keeps its date).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('api_tokens')
    .addColumn('scopes', 'text', (c) => c.notNull().defaultTo('read play'))
    .execute();
  await sql`update api_tokens set scopes = 'read play author'
    where user_id in (select id from users where role = 'author')`.execute(db);
  const cap = new Date(Date.now() + UPGRADE_LIFETIME_MS).toISOString();
  await sql`update api_tokens set expires_at = ${cap}
    where expires_at is null or expires_at > ${cap}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_tokens').dropColumn('scopes').execute();
}
