import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';

export interface MailRow {
  id: number;
  recipient: string;
  subject: string;
  body_text: string;
  body_html: string;
  attempts: number;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export async function insertMail(trx: Executor, mail: Mail, at: number): Promise<void> {
  await trx
    .insertInto('mail_outbox')
    .values({
      recipient: mail.to,
      subject: mail.subject,
      body_text: mail.text,
      body_html: mail.html,
      created_at: at,
      next_attempt_at: at,
      attempts: 0,
    })
    .execute();
}

/**
 * Claims the oldest due mail for `leaseMs` (the webhook outbox's conditional update: of two
 * processes claiming at once exactly one gets it; a dead process's claim expires).
 */
export async function claimDueMail(
  db: Executor,
  now: number,
  leaseMs: number,
  token: string,
): Promise<MailRow | undefined> {
  const free = sql<boolean>`(claimed_until is null or claimed_until < ${now})`;
  return db
    .updateTable('mail_outbox')
    .set({ claimed_until: now + leaseMs, claim_token: token })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('mail_outbox')
        .select('id')
        .where('next_attempt_at', '<=', now)
        .where(free)
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(1),
    )
    .where(free)
    .returning(['id', 'recipient', 'subject', 'body_text', 'body_html', 'attempts'])
    .executeTakeFirst();
}

export async function deleteSentMail(db: Executor, id: number, token: string): Promise<void> {
  await db.deleteFrom('mail_outbox').where('id', '=', id).where('claim_token', '=', token).execute();
}

export async function releaseMailForRetry(
  db: Executor,
  id: number,
  token: string,
  nextAttemptAt: number,
  error: string,
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set((eb) => ({
      claimed_until: null,
      claim_token: null,
      next_attempt_at: nextAttemptAt,
      attempts: eb('attempts', '+', 1),
      last_error: error.slice(0, 500),
    }))
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .execute();
}

/** Mail older than `before` is given up (its links have expired by then): answers the count. */
export async function dropExpiredMail(db: Executor, before: number): Promise<number> {
  const result = await db.deleteFrom('mail_outbox').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
