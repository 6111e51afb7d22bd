import type { Executor } from '../../db/schema.js';

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

/** Mail older than `before` is given up (its links have expired by then): answers the count. */
export async function dropExpiredMail(db: Executor, before: number): Promise<number> {
  const result = await db.deleteFrom('mail_outbox').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
