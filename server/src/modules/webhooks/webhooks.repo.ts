import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';

export interface OutboxRow {
  id: number;
  kind: string;
  payload: string;
  created_at: number;
  attempts: number;
}

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

/**
 * Claims the oldest due message for `leaseMs`: answers it, or undefined when none is due.
 * NOTE: one conditional update; the condition is checked again on the row itself, so of two
 * processes claiming at once exactly one gets it (PostgreSQL re-reads a row it waited for; SQLite
 * writes one at a time). A claim expires, so a process that died mid-send leaves it to another.
 */
export async function claimDueMessage(
  db: Executor,
  now: number,
  leaseMs: number,
  token: string,
): Promise<OutboxRow | undefined> {
  const free = sql<boolean>`(claimed_until is null or claimed_until < ${now})`;
  return db
    .updateTable('webhook_outbox')
    .set({ claimed_until: now + leaseMs, claim_token: token })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('webhook_outbox')
        .select('id')
        .where('next_attempt_at', '<=', now)
        .where(free)
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(1),
    )
    .where(free)
    .returning(['id', 'kind', 'payload', 'created_at', 'attempts'])
    .executeTakeFirst();
}

/** Sent: the message goes, if this process still holds it. */
export async function deleteSentMessage(db: Executor, id: number, token: string): Promise<void> {
  await db.deleteFrom('webhook_outbox').where('id', '=', id).where('claim_token', '=', token).execute();
}

/** Not sent: tried again at `nextAttemptAt`. */
export async function releaseForRetry(
  db: Executor,
  id: number,
  token: string,
  nextAttemptAt: number,
  error: string,
): Promise<void> {
  await db
    .updateTable('webhook_outbox')
    .set((eb) => ({
      claimed_until: null,
      claim_token: null,
      next_attempt_at: nextAttemptAt,
      attempts: eb('attempts', '+', 1),
      last_error: error,
    }))
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .execute();
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
