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

/** The events of one type still in the replay window (to find those about something withdrawn). */
export async function liveEventsOfType(
  db: Executor,
  type: string,
  notBefore: number,
): Promise<{ id: number; data: string }[]> {
  return db
    .selectFrom('live_events')
    .select(['id', 'data'])
    .where('type', '=', type)
    .where('at', '>=', notBefore)
    .execute();
}

export async function deleteLiveEvents(db: Executor, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('live_events').where('id', 'in', ids).execute();
}

/** The ids still in the log since a time: what a replay window may keep. */
export async function liveEventIdsSince(db: Executor, notBefore: number): Promise<Set<number>> {
  const rows = await db.selectFrom('live_events').select('id').where('at', '>=', notBefore).execute();
  return new Set(rows.map((r) => r.id));
}
