import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * E-mail and password accounts, and the mail they send.
 *
 * - email_credentials: one per account with a password; the address lower-cased and unique; the
 *   Argon2id hash; confirmed_at null until the confirmation link is followed.
 * - email_tokens: the confirmation (24 h) and reset (1 h) links' tokens, only their SHA-256 stored;
 *   a token is used once (deleted as it is used).
 * - mail_outbox: messages written in the transaction of their cause, then claimed (a lease), sent
 *   and deleted by one process, like the Discord webhook's outbox.
 * - blocked_emails: addresses an admin blocked; no sign-up or sign-in with them.
 * - identities.name: the way in's name as its owner knows it (handle, address), for the profile.
 * - oauth_states.link_user_id: a provider sign-in started to link a way in to this signed-in user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('email_credentials')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('email_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_tokens_user_idx').on('email_tokens').column('user_id').execute();
  await withId(db, db.schema.createTable('mail_outbox'))
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body_text', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_until', 'bigint')
    .addColumn('claim_token', 'text')
    .addColumn('last_error', 'text')
    .execute();
  await db.schema
    .createIndex('mail_outbox_due')
    .on('mail_outbox')
    .columns(['next_attempt_at', 'id'])
    .execute();
  await db.schema
    .createTable('blocked_emails')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('identities')
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('oauth_states').addColumn('link_user_id', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oauth_states').dropColumn('link_user_id').execute();
  await db.schema.alterTable('identities').dropColumn('name').execute();
  await db.schema.dropTable('blocked_emails').execute();
  await db.schema.dropTable('mail_outbox').execute();
  await db.schema.dropTable('email_tokens').execute();
  await db.schema.dropTable('email_credentials').execute();
}
