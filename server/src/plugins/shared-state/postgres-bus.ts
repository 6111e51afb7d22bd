import type pg from 'pg';
import { LocalBus, type InvalidationBus, type Topic } from '../../lib/invalidation.js';

const CHANNEL = 'ctf_invalidate';

/**
 * Invalidation across processes sharing one PostgreSQL database, with LISTEN/NOTIFY on a
 * dedicated connection (no Redis needed). Reconnects after a lost connection and then drops every
 * cache, since notifications may have been missed.
 */
export class PostgresBus implements InvalidationBus {
  private readonly local = new LocalBus();
  private client: pg.Client | null = null;
  private closed = false;
  private readonly origin = `${process.pid}-${Math.random().toString(36).slice(2)}`;

  constructor(
    private readonly url: string,
    private readonly pool: { query(text: string, values: unknown[]): Promise<unknown> },
    private readonly topics: readonly Topic[],
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const { default: driver } = await import('pg');
    const client: pg.Client = new driver.Client({ connectionString: this.url });
    client.on('error', () => this.reconnectSoon());
    client.on('end', () => this.reconnectSoon());
    client.on('notification', (n) => {
      if (n.channel !== CHANNEL || !n.payload) return;
      const [origin, topic] = n.payload.split('|');
      if (origin !== this.origin && topic) this.local.publish(topic as Topic);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.client = client;
    } catch {
      this.reconnectSoon();
    }
  }

  private reconnecting = false;
  private reconnectSoon(): void {
    if (this.closed || this.reconnecting) return;
    this.reconnecting = true;
    this.client = null;
    setTimeout(() => {
      this.reconnecting = false;
      for (const t of this.topics) this.local.publish(t);
      void this.connect();
    }, 500).unref();
  }

  publish(topic: Topic): void {
    this.local.publish(topic);
    this.pool.query('select pg_notify($1, $2)', [CHANNEL, `${this.origin}|${topic}`]).catch(() => {});
  }

  /** Notifications are pushed; there is nothing to look for. */
  sync(): void {}

  subscribe(listener: (topic: Topic) => void): () => void {
    return this.local.subscribe(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.local.close();
    await this.client?.end().catch(() => {});
  }
}
