import { sql, type Kysely } from 'kysely';

/**
 * What a sign-in reads and cleans, indexed, so a rush of thousands of first sign-ins at the start
 * of an event costs each one a few index probes instead of scans of tables that grow with it:
 * the address check of a new account (`lower(email) = ?`, which scanned every user), and the
 * housekeeping of expired sessions and login states that rides on every login.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index users_email_lower_idx on users (lower(email))`.execute(db);
  await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute();
  await db.schema.createIndex('oauth_states_expires_idx').on('oauth_states').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('oauth_states_expires_idx').execute();
  await db.schema.dropIndex('sessions_expires_idx').execute();
  await db.schema.dropIndex('users_email_lower_idx').execute();
}
