import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * Personal API tokens (issue 31): a user's named bearer tokens. Only the sha256 of a token is
 * stored (like sessions.token_hash); the token itself is shown once, when it is made. A removed
 * user's tokens go with the user (cascade). Times are ISO texts, like the sessions'; expires_at
 * null never expires; last_used_at is written at most once a minute per token.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('api_tokens'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('api_tokens_user_idx').on('api_tokens').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_tokens').execute();
}
