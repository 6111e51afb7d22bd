import { randomUUID } from 'node:crypto';
import type { WebhookEventKind } from '../../config.js';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/schema.js';
import { LISTENER_PRIORITY } from '../../lib/domain-events.js';
import { claimDue, deleteClaimed, releaseForRetry } from '../../db/leased-queue.js';
import { DrainLoop } from '../../lib/drain-loop.js';
import {
  deleteOutboxMessagesAbout,
  countPendingMessages,
  dropExpiredMessages,
  insertOutboxMessage,
  readWebhookState,
  writeWebhookState,
} from './webhooks.repo.js';

/**
 * Timing of the sender; tests shorten it. A claim (lease) outlives the longest send, so two
 * processes never hold one message at once.
 */
export const WEBHOOK_TIMING = {
  /** How often each process looks for due messages (one timer per process). */
  pollMs: 1000,
  /** A send that takes longer is abandoned and retried. */
  timeoutMs: 10_000,
  leaseMs: 30_000,
  /** First retry delay; doubles per attempt, up to maxBackoffMs. */
  backoffMs: 2000,
  maxBackoffMs: 5 * 60_000,
  /** A message not delivered within this time is dropped with a log line. */
  keepMs: 24 * 60 * 60_000,
};

/** Discord refuses content longer than this. */
const DISCORD_CONTENT_MAX = 2000;

/**
 * Writes one Discord message to the outbox, in the caller's transaction, when the webhook is
 * configured and WEBHOOK_EVENTS lists this kind (kickWebhookSender after the commit).
 * allowed_mentions is always empty: no team name or announcement can ping @everyone, a role or a user.
 */
async function enqueueWebhook(
  trx: Executor,
  ctx: AppContext,
  kind: WebhookEventKind,
  content: string,
  ref?: string,
): Promise<void> {
  const webhook = ctx.config.webhook;
  if (!webhook || !webhook.events.includes(kind)) return;
  const text =
    content.length > DISCORD_CONTENT_MAX ? `${content.slice(0, DISCORD_CONTENT_MAX - 1)}…` : content;
  await insertOutboxMessage(trx, {
    kind,
    payload: JSON.stringify({ content: text, allowed_mentions: { parse: [] } }),
    at: ctx.clock.now().getTime(),
    ...(ref ? { ref } : {}),
  });
}

/**
 * A name as Discord shows it, whatever it holds: every character its Markdown reads (emphasis,
 * spoilers, code, quotes, headings, masked links `[text](url)`, mentions `<@&id>`, emoji and the
 * `:` of a link's scheme) is escaped with a backslash. A team named `[Claim prize](https://evil.tk/x)`
 * showed as a masked link in the club's first-blood message (issue 29).
 */
export function escapeDiscordMarkdown(name: string): string {
  return name.replace(/[\\*_~`|>#\-+=[\]()<@:!.]/g, '\\$&');
}

/**
 * The messages, as Discord shows them (its Markdown): the names in them (challenges, competitors,
 * an announcement's title) are escaped; an announcement's body is the organisers' own Markdown.
 */
const webhookText = {
  announcement: (ctx: AppContext, title: string, body: string) =>
    `📢 **${escapeDiscordMarkdown(title)}**\n${body}\n${ctx.config.publicUrl}/announcements`,
  firstBlood: (challenge: string, competitor: string) =>
    `🩸 First blood on **${escapeDiscordMarkdown(challenge)}** by **${escapeDiscordMarkdown(competitor)}**`,
  site: (activated: boolean) => (activated ? '🟢 The CTF is open.' : '🔴 The CTF is closed.'),
};

/**
 * The outbox listens to what the modules announce: its message is written inside the cause's
 * transaction (the 'transaction' phase), so it commits with the cause and is sent exactly once;
 * after the commit the sender is kicked to send it now rather than at its next poll.
 */
export function subscribeOutbox(ctx: AppContext): void {
  const events = ctx.domainEvents;
  const phase = 'transaction';
  events.on(
    'first-blood',
    (b, trx) => enqueueWebhook(trx, ctx, 'first-blood', webhookText.firstBlood(b.challenge, b.competitor)),
    { phase },
  );
  // The switch's message only when it moved (a repeated click tells Discord nothing).
  events.on(
    'site.switched',
    async (s, trx) => {
      if (s.changed) await enqueueWebhook(trx, ctx, 'site', webhookText.site(s.activated));
    },
    { phase },
  );
  events.on(
    'announcement.posted',
    (a, trx) =>
      enqueueWebhook(
        trx,
        ctx,
        'announcements',
        webhookText.announcement(ctx, a.title, a.body),
        `announcement:${a.id}`,
      ),
    { phase },
  );
  // Deleted before its message went out: the message goes with it (a message already being sent
  // at that instant still goes).
  events.on('announcement.deleted', (a, trx) => deleteOutboxMessagesAbout(trx, `announcement:${a.id}`), {
    phase,
  });
  const kick = () => kickWebhookSender(ctx);
  const priority = LISTENER_PRIORITY.outbox;
  for (const name of ['first-blood', 'site.switched', 'announcement.posted'] as const)
    events.on(name, kick, { priority });
}

export interface WebhookStatus {
  configured: boolean;
  events: WebhookEventKind[];
  pending: number;
  last_success_at: string | null;
  last_error: string | null;
}

/** GET /api/admin/webhook/status. */
export async function getWebhookStatus(ctx: AppContext): Promise<WebhookStatus> {
  const db = ctx.database.db;
  const [pending, state] = await Promise.all([countPendingMessages(db), readWebhookState(db)]);
  return {
    configured: ctx.config.webhook !== null,
    events: ctx.config.webhook?.events ?? [],
    pending,
    last_success_at: state.last_success_at,
    last_error: state.last_error,
  };
}

/** Messages waiting in the outbox (the metrics' outbox depth; one table for every process). */
export function outboxDepth(ctx: AppContext): Promise<number> {
  return countPendingMessages(ctx.database.db);
}

const senders = new WeakMap<AppContext, WebhookSender>();

/** After the enqueueing transaction committed: send now rather than at the next poll. */
function kickWebhookSender(ctx: AppContext): void {
  senders.get(ctx)?.kick();
}

/** Starts this process's sender (nothing without DISCORD_WEBHOOK_URL). */
export function startWebhookSender(ctx: AppContext): WebhookSender | null {
  if (!ctx.config.webhook) return null;
  const sender = new WebhookSender(ctx, ctx.config.webhook.url);
  senders.set(ctx, sender);
  sender.start();
  return sender;
}

/**
 * Sends the outbox, one message at a time, off every request's path: a slow or dead webhook only
 * delays its own messages. Each process runs one; the claim gives each message to one of them.
 */
export class WebhookSender {
  private readonly loop = new DrainLoop(
    () => this.drain(),
    WEBHOOK_TIMING.pollMs,
    (err: unknown) => this.ctx.log.error({ err }, 'webhook: outbox could not be read'),
  );
  private readonly abort = new AbortController();

  constructor(
    private readonly ctx: AppContext,
    private readonly url: string,
  ) {}

  start(): void {
    this.loop.start();
  }

  /** Looks for due messages now (after an enqueue here; the timer covers other processes'). */
  kick(): void {
    this.loop.kick();
  }

  async stop(): Promise<void> {
    // The loop is marked stopped first, so the aborted send does not go on to the next message.
    const stopped = this.loop.stop();
    this.abort.abort();
    await stopped;
  }

  private async drain(): Promise<void> {
    const db = this.ctx.database.db;
    const now = () => this.ctx.clock.now().getTime();
    for (const dropped of await dropExpiredMessages(db, now() - WEBHOOK_TIMING.keepMs)) {
      this.ctx.log.warn(
        `webhook: dropped ${dropped.kind} message #${dropped.id} after 24 h undelivered (last error: ${dropped.last_error ?? 'none'})`,
      );
    }
    const token = randomUUID();
    while (!this.loop.stopped) {
      const message = await claimDue(db, 'webhook_outbox', now(), WEBHOOK_TIMING.leaseMs, token);
      if (!message) return;
      const outcome = await this.send(message.payload);
      if (outcome.ok) {
        // NOTE: one transaction, so the status never reads "nothing pending" before the success
        // that emptied the queue is recorded.
        await this.ctx.database.transaction(async (trx) => {
          await deleteClaimed(trx, 'webhook_outbox', message.id, token);
          await writeWebhookState(trx, { last_success_at: this.ctx.clock.now().toISOString() });
        });
        continue;
      }
      const backoff = Math.min(WEBHOOK_TIMING.backoffMs * 2 ** message.attempts, WEBHOOK_TIMING.maxBackoffMs);
      const wait = outcome.retryAfterMs ?? backoff * (0.75 + Math.random() / 2);
      await this.ctx.database.transaction(async (trx) => {
        await releaseForRetry(trx, 'webhook_outbox', { id: message.id, token }, now() + wait, outcome.error);
        await writeWebhookState(trx, {
          last_error: `${this.ctx.clock.now().toISOString()} ${outcome.error}`,
        });
      });
      // The webhook is failing: the other messages wait for the next poll rather than hammer it.
      return;
    }
  }

  private async send(
    payload: string,
  ): Promise<{ ok: true } | { ok: false; error: string; retryAfterMs?: number }> {
    try {
      const res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: payload,
        signal: AbortSignal.any([AbortSignal.timeout(WEBHOOK_TIMING.timeoutMs), this.abort.signal]),
        redirect: 'error',
      });
      const text = await res.text().catch(() => '');
      if (res.ok) return { ok: true };
      if (res.status === 429) {
        // Discord says how long to wait, in seconds, in the body (and in Retry-After).
        const header = res.headers.get('retry-after');
        let seconds = header === null ? Number.NaN : Number(header);
        try {
          const body = JSON.parse(text) as { retry_after?: unknown };
          if (typeof body.retry_after === 'number') seconds = body.retry_after;
        } catch {
          // no JSON body: the header stands
        }
        const retryAfterMs = Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : undefined;
        return { ok: false, error: 'HTTP 429 (rate limited)', retryAfterMs };
      }
      return { ok: false, error: `HTTP ${res.status}` };
    } catch (err) {
      const name = err instanceof Error ? err.name : '';
      return { ok: false, error: name === 'TimeoutError' ? 'timed out' : 'unreachable' };
    }
  }
}
