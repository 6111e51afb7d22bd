import { type Kysely } from 'kysely';

/**
 * The live event stream's log (GET /api/events). Every process reads new rows from it when the
 * bus says there are some, so every process sends every event with the same id, and a browser
 * that reconnects elsewhere resumes from its Last-Event-ID without duplicates or gaps.
 *
 * NOTE: ids are not a sequence or AUTOINCREMENT: each is taken from live_event_counter inside the
 * writing transaction (update ... returning). That row lock orders the writers, so on PostgreSQL
 * too an id never commits after a larger one (a reader that has seen id n never misses a later n-1).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('live_events')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    /** Milliseconds since the epoch: the 10-minute window is a number comparison. */
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('live_event_counter')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('last_id', 'integer', (c) => c.notNull())
    .execute();
  await db
    .insertInto('live_event_counter' as never)
    .values({ id: 1, last_id: 0 } as never)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('live_event_counter').execute();
  await db.schema.dropTable('live_events').execute();
}
