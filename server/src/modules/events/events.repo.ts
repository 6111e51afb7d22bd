import type { Executor } from '../../db/schema.js';

export interface LiveEventRow {
  id: number;
  type: string;
  data: string;
  at: number;
}

/**
 * Appends one event and answers its id. The id comes from the counter row, updated in the same
 * transaction: writers queue on that row, so ids commit in order on every database (migration 0007_a).
 */
export async function appendLiveEvent(
  trx: Executor,
  event: { type: string; data: string; at: number },
): Promise<number> {
  const { last_id: id } = await trx
    .updateTable('live_event_counter')
    .set((eb) => ({ last_id: eb('last_id', '+', 1) }))
    .where('id', '=', 1)
    .returning('last_id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('live_events')
    .values({ id, ...event })
    .execute();
  return id;
}

/** Events after an id, oldest first, no older than a time. */
export async function liveEventsAfter(
  db: Executor,
  afterId: number,
  notBefore: number,
): Promise<LiveEventRow[]> {
  return db
    .selectFrom('live_events')
    .select(['id', 'type', 'data', 'at'])
    .where('id', '>', afterId)
    .where('at', '>=', notBefore)
    .orderBy('id')
    .execute();
}

/** The last id handed out (0 before the first event). */
export async function lastLiveEventId(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('live_event_counter')
    .select('last_id')
    .where('id', '=', 1)
    .executeTakeFirst();
  return row?.last_id ?? 0;
}

export async function deleteLiveEventsBefore(db: Executor, before: number): Promise<void> {
  await db.deleteFrom('live_events').where('at', '<', before).execute();
}
