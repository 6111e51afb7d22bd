import { type Generated, type Kysely, type Selectable, sql } from 'kysely';
import type { Database, Executor } from './schema.js';

/**
 * The outbox tables (webhook messages, mail): rows sent by one process at a time under a lease,
 * retried with a later `next_attempt_at` when sending fails. The lease rules live here once.
 */
export type LeasedQueue = 'webhook_outbox' | 'mail_outbox';

/** The columns every outbox shares: what the queries below read and write. */
interface LeaseColumns {
  id: Generated<number>;
  created_at: number;
  next_attempt_at: number;
  attempts: number;
  claimed_until: number | null;
  claim_token: string | null;
  last_error: string | null;
}

// NOTE: Kysely cannot build one query over a union of tables, so the queries are typed against
// the shared columns alone under the real table's name (the SQL names the table it is given).
function onQueue(db: Executor, queue: LeasedQueue) {
  return { db: db as unknown as Kysely<Record<'queue', LeaseColumns>>, table: queue as unknown as 'queue' };
}

/**
 * Claims the oldest due row for `leaseMs`: answers it, or undefined when none is due.
 * NOTE: one conditional update; the condition is checked again on the row itself, so of two
 * processes claiming at once exactly one gets it (PostgreSQL re-reads a row it waited for; SQLite
 * writes one at a time). A claim expires, so a process that died mid-send leaves it to another.
 */
export async function claimDue<Q extends LeasedQueue>(
  executor: Executor,
  queue: Q,
  now: number,
  leaseMs: number,
  token: string,
): Promise<Selectable<Database[Q]> | undefined> {
  const { db, table } = onQueue(executor, queue);
  const free = sql<boolean>`(claimed_until is null or claimed_until < ${now})`;
  const row = await db
    .updateTable(table)
    .set({ claimed_until: now + leaseMs, claim_token: token })
    .where('id', '=', (eb) =>
      eb
        .selectFrom(table)
        .select('id')
        .where('next_attempt_at', '<=', now)
        .where(free)
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(1),
    )
    .where(free)
    .returningAll()
    .executeTakeFirst();
  return row as Selectable<Database[Q]> | undefined;
}

/** Sent: the row goes, if this process still holds it. */
export async function deleteClaimed(
  executor: Executor,
  queue: LeasedQueue,
  id: number,
  token: string,
): Promise<void> {
  const { db, table } = onQueue(executor, queue);
  await db.deleteFrom(table).where('id', '=', id).where('claim_token', '=', token).execute();
}

/** Not sent: freed, to be tried again at `nextAttemptAt`, the error kept (bounded) for the status. */
export async function releaseForRetry(
  executor: Executor,
  queue: LeasedQueue,
  claim: { id: number; token: string },
  nextAttemptAt: number,
  error: string,
): Promise<void> {
  const { db, table } = onQueue(executor, queue);
  await db
    .updateTable(table)
    .set((eb) => ({
      claimed_until: null,
      claim_token: null,
      next_attempt_at: nextAttemptAt,
      attempts: eb('attempts', '+', 1),
      last_error: error.slice(0, 500),
    }))
    .where('id', '=', claim.id)
    .where('claim_token', '=', claim.token)
    .execute();
}
