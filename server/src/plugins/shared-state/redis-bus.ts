import type { Redis } from 'ioredis';
import { LocalBus, type InvalidationBus, type Topic } from '../../lib/invalidation.js';

/**
 * Invalidation across processes and machines through Redis pub/sub. Local listeners hear a
 * publish at once; other processes hear it through the channel.
 *
 * NOTE: revocation never fails open. From the moment the subscriber's connection drops until it
 * is subscribed again, hearsOthers() is false, and the caches of sessions and tokens read the
 * database at every request instead (lib/invalidation.ts, KeyedCache). Only once the SUBSCRIBE is
 * acknowledged is every cache dropped and the bus trusted again: a message published in between
 * would otherwise be lost while a cache refilled from before it. Publications that could not be
 * sent while Redis was away are sent again when it is back, for processes that never lost it.
 */
export class RedisBus implements InvalidationBus {
  private readonly local = new LocalBus();
  private readonly channel: string;
  private readonly origin = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  private listening = false;
  /** Bumped at every connection change: a SUBSCRIBE answered for an older connection is ignored. */
  private epoch = 0;
  private readonly unsent = new Set<Topic>();

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    prefix: string,
    private readonly topics: readonly Topic[],
  ) {
    this.channel = `${prefix}invalidate`;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      const [origin, topic] = message.split('|');
      if (origin !== this.origin && topic) this.local.publish(topic as Topic);
    });
    const lost = () => {
      this.epoch += 1;
      this.listening = false;
    };
    subscriber.on('close', lost);
    subscriber.on('end', lost);
    subscriber.on('reconnecting', lost);
    subscriber.on('error', lost);
    subscriber.on('ready', () => this.listen());
    publisher.on('ready', () => this.resend());
    if (subscriber.status === 'ready') this.listen();
  }

  private listen(): void {
    const epoch = ++this.epoch;
    this.subscriber.subscribe(this.channel).then(
      () => {
        if (epoch !== this.epoch || this.subscriber.status !== 'ready') return;
        // Everything kept may have missed a message while the channel was down.
        for (const t of this.topics) this.local.publish(t);
        this.listening = true;
      },
      () => {},
    );
  }

  private resend(): void {
    const topics = [...this.unsent];
    this.unsent.clear();
    for (const topic of topics) this.send(topic);
  }

  private send(topic: Topic): void {
    if (this.publisher.status !== 'ready') {
      this.unsent.add(topic);
      return;
    }
    this.publisher.publish(this.channel, `${this.origin}|${topic}`).catch(() => this.unsent.add(topic));
  }

  publish(topic: Topic): void {
    this.local.publish(topic);
    this.send(topic);
  }

  /** Notifications are pushed; there is nothing to look for. */
  sync(): void {}

  hearsOthers(): boolean {
    return this.listening && this.subscriber.status === 'ready';
  }

  subscribe(listener: (topic: Topic) => void): () => void {
    return this.local.subscribe(listener);
  }

  async close(): Promise<void> {
    await this.local.close();
  }
}
