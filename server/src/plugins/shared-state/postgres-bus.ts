import type pg from 'pg';
import { LocalBus, type InvalidationBus, type Topic } from '../../lib/invalidation.js';

const CHANNEL = 'ctf_invalidate';

/** How often a process says it is alive, and for how long a silent one still counts as a sibling. */
export const PRESENCE_HEARTBEAT_MS = 1000;
export const PRESENCE_ALIVE_MS = 5000;
/**
 * How long a process listens before it may conclude it is alone: a live process answers a hello
 * at once and beats every second, so two beats of silence mean nobody is there.
 */
export const PRESENCE_LEARN_MS = 2 * PRESENCE_HEARTBEAT_MS;
/** Presence signals travel on the channel beside the topics; topic names never start with '@'. */
const HELLO = '@hello';
const ALIVE = '@alive';
const BYE = '@bye';

/**
 * Invalidation across processes sharing one PostgreSQL database, with LISTEN/NOTIFY on a
 * dedicated connection (no Redis needed). Reconnects after a lost connection and then drops every
 * cache, since notifications may have been missed; in between, hearsOthers() is false.
 *
 * It also tells whether this process is alone on the database (hasSiblings), as the SQLite
 * events file does: every process of the site that shares the database without Redis runs this
 * bus, says hello when it starts listening, answers a newcomer's hello at once, beats every
 * second and says goodbye when it closes. Until a process has listened for PRESENCE_LEARN_MS,
 * and whenever its listening connection is down, it counts as having siblings: in doubt, shared.
 */
export class PostgresBus implements InvalidationBus {
  private readonly local = new LocalBus();
  /** The listening connection, or the one being made; ended by close() either way. */
  private client: pg.Client | null = null;
  private closed = false;
  private readonly origin = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  /** Other processes by origin, with when each was last heard. */
  private readonly siblings = new Map<string, number>();
  /** Since when this process has listened without interruption; null while not listening. */
  private listeningSince: number | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  /** Whether LISTEN is in force on a live connection (and the caches were dropped since it came back). */
  private listening = false;

  constructor(
    private readonly url: string,
    private readonly pool: { query(text: string, values: unknown[]): Promise<unknown> },
    private readonly topics: readonly Topic[],
    private readonly now: () => number = Date.now,
  ) {}

  async start(): Promise<void> {
    await this.connect();
    this.heartbeat = setInterval(() => this.signal(ALIVE), PRESENCE_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /**
   * Whether another process may share the database: one was heard within PRESENCE_ALIVE_MS, or
   * this one has not listened long enough to know (PRESENCE_LEARN_MS), or cannot listen now.
   */
  get hasSiblings(): boolean {
    const now = this.now();
    if (this.listeningSince === null || now - this.listeningSince < PRESENCE_LEARN_MS) return true;
    for (const [origin, heard] of this.siblings) {
      if (now - heard < PRESENCE_ALIVE_MS) return true;
      this.siblings.delete(origin);
    }
    return false;
  }

  private signal(kind: typeof HELLO | typeof ALIVE | typeof BYE): Promise<unknown> {
    return this.pool.query('select pg_notify($1, $2)', [CHANNEL, `${this.origin}|${kind}`]).catch(() => {});
  }

  private onPresence(origin: string, kind: string): void {
    if (kind === BYE) {
      this.siblings.delete(origin);
      return;
    }
    this.siblings.set(origin, this.now());
    // A newcomer learns of this process at once instead of at the next beat.
    if (kind === HELLO) void this.signal(ALIVE);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const { default: driver } = await import('pg');
    const client: pg.Client = new driver.Client({ connectionString: this.url });
    // Only the current connection may start a reconnect: a replaced one's late error or end is
    // ignored (two reconnects at once would leave two listening connections).
    this.client = client;
    const lost = () => {
      if (this.client === client) this.reconnectSoon();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (n) => {
      if (n.channel !== CHANNEL || !n.payload) return;
      const [origin, topic] = n.payload.split('|');
      if (!origin || origin === this.origin || !topic) return;
      if (topic.startsWith('@')) this.onPresence(origin, topic);
      else this.local.publish(topic as Topic);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      if (this.closed) return;
      this.listeningSince = this.now();
      // Only now, listening again, is every cache dropped: a notification sent while the channel
      // was down is lost, and a cache refilled before LISTEN could hold what it revoked.
      for (const t of this.topics) this.local.publish(t);
      this.listening = true;
      await this.signal(HELLO);
    } catch {
      // reconnectSoon ends this connection (it may have opened yet failed to LISTEN).
      if (this.client === client) this.reconnectSoon();
    }
  }

  private reconnecting = false;
  private reconnectSoon(): void {
    if (this.closed || this.reconnecting) return;
    this.reconnecting = true;
    this.listening = false;
    // The lost connection is ended (its socket may still be open) before the next is made.
    void this.client?.end().catch(() => {});
    this.client = null;
    this.listeningSince = null;
    setTimeout(() => {
      this.reconnecting = false;
      void this.connect();
    }, 500).unref();
  }

  publish(topic: Topic): void {
    this.local.publish(topic);
    this.pool.query('select pg_notify($1, $2)', [CHANNEL, `${this.origin}|${topic}`]).catch(() => {});
  }

  /** Notifications are pushed; there is nothing to look for. */
  sync(): void {}

  /**
   * False from the moment the listening connection fails until LISTEN is in force again: the
   * caches of sessions and tokens then read the database at every request (never fail open).
   */
  hearsOthers(): boolean {
    return this.listening;
  }

  subscribe(listener: (topic: Topic) => void): () => void {
    return this.local.subscribe(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.signal(BYE);
    await this.local.close();
    await this.client?.end().catch(() => {});
  }
}
