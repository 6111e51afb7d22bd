import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * The admin audit log (issue 18): one row per admin action, written in the action's transaction.
 * The admin's name is copied into the row, so an entry outlives the account that made it. Rows are
 * never updated or deleted by the site. Pages are read newest first by id, whole or by admin or by
 * action, hence the three orders.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('audit_log'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('admin_id', 'integer')
    .addColumn('admin_name', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_admin_idx').on('audit_log').columns(['admin_name', 'id']).execute();
  await db.schema.createIndex('audit_log_action_idx').on('audit_log').columns(['action', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
}
