import type { Executor } from '../../db/schema.js';

export async function insertOutboxMessage(
  trx: Executor,
  message: { kind: string; payload: string; at: number; ref?: string },
): Promise<void> {
  await trx
    .insertInto('webhook_outbox')
    .values({
      kind: message.kind,
      payload: message.payload,
      ref: message.ref ?? null,
      created_at: message.at,
      next_attempt_at: message.at,
      attempts: 0,
    })
    .execute();
}

/** Withdraws the messages about something (its `ref`) that have not gone out yet. */
export async function deleteOutboxMessagesAbout(trx: Executor, ref: string): Promise<void> {
  await trx.deleteFrom('webhook_outbox').where('ref', '=', ref).execute();
}

/** Messages older than `before` are given up: answers them (for the log) and deletes them. */
export async function dropExpiredMessages(
  db: Executor,
  before: number,
): Promise<{ id: number; kind: string; last_error: string | null }[]> {
  const rows = await db
    .selectFrom('webhook_outbox')
    .select(['id', 'kind', 'last_error'])
    .where('created_at', '<', before)
    .execute();
  if (rows.length > 0) {
    await db
      .deleteFrom('webhook_outbox')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
  }
  return rows;
}

export async function countPendingMessages(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('webhook_outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function readWebhookState(
  db: Executor,
): Promise<{ last_success_at: string | null; last_error: string | null }> {
  const row = await db
    .selectFrom('webhook_state')
    .select(['last_success_at', 'last_error'])
    .where('id', '=', 1)
    .executeTakeFirst();
  return row ?? { last_success_at: null, last_error: null };
}

export async function writeWebhookState(
  db: Executor,
  values: { last_success_at?: string; last_error?: string | null },
): Promise<void> {
  await db.updateTable('webhook_state').set(values).where('id', '=', 1).execute();
}
