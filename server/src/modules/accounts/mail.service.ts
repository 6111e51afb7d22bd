import { randomUUID } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/schema.js';
import { claimDue, deleteClaimed, releaseForRetry } from '../../db/leased-queue.js';
import { DrainLoop } from '../../lib/drain-loop.js';
import { dropExpiredMail, insertMail, type Mail } from './mail.repo.js';

/**
 * The accounts' mail (confirmation and reset links), sent the way the Discord webhook's messages
 * are: written to an outbox in the transaction of their cause, then claimed by one process, sent
 * off every request's path, retried with back-off, and given up after a day (the links are dead by
 * then). A slow or dead SMTP server delays only the mail.
 */
export const MAIL_TIMING = {
  pollMs: 1000,
  /** A send (connect, TLS, the whole SMTP exchange) that takes longer is abandoned and retried. */
  timeoutMs: 15_000,
  leaseMs: 60_000,
  backoffMs: 5000,
  maxBackoffMs: 10 * 60_000,
  keepMs: 24 * 60 * 60_000,
};

/** Queues a mail in the caller's transaction; call kickMail after the commit. */
export async function enqueueMail(ctx: AppContext, trx: Executor, mail: Mail): Promise<void> {
  await insertMail(trx, mail, ctx.clock.now().getTime());
}

const senders = new WeakMap<AppContext, MailSender>();

/** After the enqueueing transaction committed: send now rather than at the next poll. */
export function kickMail(ctx: AppContext): void {
  senders.get(ctx)?.kick();
}

/** Starts this process's sender (nothing without SMTP_URL). */
export async function startMailSender(ctx: AppContext): Promise<MailSender | null> {
  if (!ctx.config.mail) return null;
  // Loaded only by the sites that send mail.
  const nodemailer = await import('nodemailer');
  // The URL's own options (host, port, auth, secure) and bounded waits at every step.
  const url = new URL(ctx.config.mail.smtpUrl);
  url.searchParams.set('connectionTimeout', String(MAIL_TIMING.timeoutMs));
  url.searchParams.set('greetingTimeout', String(MAIL_TIMING.timeoutMs));
  url.searchParams.set('socketTimeout', String(MAIL_TIMING.timeoutMs));
  const transport = nodemailer.createTransport(url.toString());
  const sender = new MailSender(ctx, transport, ctx.config.mail.from);
  senders.set(ctx, sender);
  sender.start();
  return sender;
}

export class MailSender {
  private readonly loop = new DrainLoop(
    () => this.drain(),
    MAIL_TIMING.pollMs,
    (err: unknown) => this.ctx.log.error({ err }, 'mail: outbox could not be read'),
  );

  constructor(
    private readonly ctx: AppContext,
    private readonly transport: Transporter,
    private readonly from: string,
  ) {}

  start(): void {
    this.loop.start();
  }

  kick(): void {
    this.loop.kick();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    this.transport.close();
  }

  private async drain(): Promise<void> {
    const db = this.ctx.database.db;
    const now = () => this.ctx.clock.now().getTime();
    const dropped = await dropExpiredMail(db, now() - MAIL_TIMING.keepMs);
    if (dropped > 0) this.ctx.log.warn(`mail: dropped ${dropped} message(s) undelivered after 24 h`);
    const token = randomUUID();
    while (!this.loop.stopped) {
      const mail = await claimDue(db, 'mail_outbox', now(), MAIL_TIMING.leaseMs, token);
      if (!mail) return;
      try {
        await this.transport.sendMail({
          from: this.from,
          to: mail.recipient,
          subject: mail.subject,
          text: mail.body_text,
          html: mail.body_html,
        });
        await deleteClaimed(db, 'mail_outbox', mail.id, token);
      } catch (err) {
        const reason = err instanceof Error ? err.message : 'unknown';
        const backoff = Math.min(MAIL_TIMING.backoffMs * 2 ** mail.attempts, MAIL_TIMING.maxBackoffMs);
        const retryAt = now() + backoff * (0.75 + Math.random() / 2);
        await releaseForRetry(db, 'mail_outbox', { id: mail.id, token }, retryAt, reason);
        // NOTE: the address is not logged (it is personal data); the message id is enough to find it.
        this.ctx.log.warn({ mail: mail.id, reason }, 'mail: not sent, will retry');
        return;
      }
    }
  }
}
