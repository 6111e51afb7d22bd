import type { Redis } from 'ioredis';
import { LocalBus, type InvalidationBus, type Topic } from '../../lib/invalidation.js';

/**
 * Invalidation across processes and machines through Redis pub/sub. Local listeners hear a
 * publish at once; other processes hear it through the channel. While Redis is away, publishes
 * still reach local caches, and every cache is dropped when the subscription comes back (it may
 * have missed messages in between).
 */
export class RedisBus implements InvalidationBus {
  private readonly local = new LocalBus();
  private readonly channel: string;
  private readonly origin = `${process.pid}-${Math.random().toString(36).slice(2)}`;

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    prefix: string,
    topics: readonly Topic[],
  ) {
    this.channel = `${prefix}invalidate`;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      const [origin, topic] = message.split('|');
      if (origin !== this.origin && topic) this.local.publish(topic as Topic);
    });
    subscriber.on('ready', () => {
      for (const t of topics) this.local.publish(t);
    });
    void subscriber.subscribe(this.channel).catch(() => {});
  }

  publish(topic: Topic): void {
    this.local.publish(topic);
    this.publisher.publish(this.channel, `${this.origin}|${topic}`).catch(() => {});
  }

  /** Notifications are pushed; there is nothing to look for. */
  sync(): void {}

  subscribe(listener: (topic: Topic) => void): () => void {
    return this.local.subscribe(listener);
  }

  async close(): Promise<void> {
    await this.local.close();
  }
}
