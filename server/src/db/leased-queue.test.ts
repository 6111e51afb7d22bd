import { describe, expect, it } from 'vitest';
import { connectedDatabaseEach, testDatabaseKinds } from '../../test/databases.js';
import type { DatabaseHandle } from './connect.js';
import { claimDue, deleteClaimed, releaseForRetry, type LeasedQueue } from './leased-queue.js';

/** The lease rules both outboxes (webhook messages, mail) rely on, on each of their tables. */
const LEASE_MS = 60_000;
const T0 = 1_800_000_000_000;

async function enqueue(handle: DatabaseHandle, queue: LeasedQueue, at: number): Promise<number> {
  const common = { created_at: at, next_attempt_at: at, attempts: 0 };
  const row =
    queue === 'mail_outbox'
      ? await handle.db
          .insertInto('mail_outbox')
          .values({ ...common, recipient: 'a@example.org', subject: 's', body_text: 't', body_html: 'h' })
          .returning('id')
          .executeTakeFirstOrThrow()
      : await handle.db
          .insertInto('webhook_outbox')
          .values({ ...common, kind: 'site', payload: '{}', ref: null })
          .returning('id')
          .executeTakeFirstOrThrow();
  return row.id;
}

for (const kind of testDatabaseKinds()) {
  for (const queue of ['mail_outbox', 'webhook_outbox'] as const) {
    describe(`the leased queue ${queue} on ${kind}`, () => {
      const handle = connectedDatabaseEach(kind);

      it('hands a due row to exactly one of many claimers at once, the oldest first', async () => {
        const first = await enqueue(handle(), queue, T0);
        await enqueue(handle(), queue, T0 + 10);
        const claims = await Promise.all(
          Array.from({ length: 8 }, (_, i) => claimDue(handle().db, queue, T0 + 5, LEASE_MS, `p${i}`)),
        );
        const won = claims.filter((c) => c !== undefined);
        expect(won).toHaveLength(1);
        expect(won[0]!.id).toBe(first);
        expect(won[0]!.claim_token).toMatch(/^p\d$/);
      });

      it('takes a claim back only after its lease has run out', async () => {
        const id = await enqueue(handle(), queue, T0);
        expect((await claimDue(handle().db, queue, T0, LEASE_MS, 'dead'))?.id).toBe(id);
        expect(await claimDue(handle().db, queue, T0 + LEASE_MS - 1, LEASE_MS, 'other')).toBeUndefined();
        expect((await claimDue(handle().db, queue, T0 + LEASE_MS + 1, LEASE_MS, 'other'))?.id).toBe(id);
        // The dead process's late delete finds nothing of its own: the row stays with the new holder.
        await deleteClaimed(handle().db, queue, id, 'dead');
        await releaseForRetry(
          handle().db,
          queue,
          { id, token: 'other' },
          T0 + 5 * LEASE_MS,
          'x'.repeat(2000),
        );
        expect(await claimDue(handle().db, queue, T0 + 4 * LEASE_MS, LEASE_MS, 'third')).toBeUndefined();
        const retried = await claimDue(handle().db, queue, T0 + 5 * LEASE_MS, LEASE_MS, 'third');
        expect(retried).toMatchObject({ id, attempts: 1 });
        expect(retried!.last_error).toHaveLength(500);
        await deleteClaimed(handle().db, queue, id, 'third');
        expect(await claimDue(handle().db, queue, T0 + 10 * LEASE_MS, LEASE_MS, 'fourth')).toBeUndefined();
      });
    });
  }
}
