import { type Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * The Discord webhook's outbox (docs/product.md §15): a message is written here in the same transaction
 * as its cause (an announcement, a first blood, the site switch), then claimed by exactly one
 * process (a lease: claimed_until), sent, and deleted. Times are milliseconds since the epoch.
 * webhook_state (one row) keeps what the admin panel shows: the last success and the last error.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('webhook_outbox'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_until', 'bigint')
    .addColumn('claim_token', 'text')
    .addColumn('last_error', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_outbox_due')
    .on('webhook_outbox')
    .columns(['next_attempt_at', 'id'])
    .execute();
  await db.schema
    .createTable('webhook_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('last_success_at', 'text')
    .addColumn('last_error', 'text')
    .execute();
  await db
    .insertInto('webhook_state' as never)
    .values({ id: 1 } as never)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_state').execute();
  await db.schema.dropTable('webhook_outbox').execute();
}
