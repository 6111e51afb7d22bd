import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * Issue 19: running the event from the admin panel. The settings themselves are rows of the
 * existing key/value `settings` table; this adds what they need beside it:
 * - site_transitions: the timed open and close, one row each time one happens (its key names the
 *   scheduled time, so exactly one process applies it: the insert is the claim);
 * - divisions, and each user's division (null: none);
 * - practice_solves: correct flags after the end in practice mode, kept apart from solves so no
 *   score, board, graph or feed ever reads them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('site_transitions')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('applied_at', 'text', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('divisions'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull().unique())
    /** Comma-separated lower-case e-mail domains; empty: anyone may pick it. */
    .addColumn('email_domains', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('users').addColumn('division_id', 'integer').execute();

  await withId(db, db.schema.createTable('practice_solves'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('challenge_id', 'integer', (c) => c.notNull().references('challenges.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('practice_solves_user_challenge_unique', ['user_id', 'challenge_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('practice_solves').execute();
  await db.schema.alterTable('users').dropColumn('division_id').execute();
  await db.schema.dropTable('divisions').execute();
  await db.schema.dropTable('site_transitions').execute();
}
