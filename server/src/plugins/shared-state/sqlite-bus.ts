import type SQLite from 'better-sqlite3';
import { LocalBus, type InvalidationBus, type Topic } from '../../lib/invalidation.js';

/** How often another process's commits are looked for. */
export const SQLITE_POLL_MS = 200;

/**
 * Invalidation between processes sharing one SQLite file (WORKERS > 1). PRAGMA data_version
 * changes when another connection commits; then every cache is dropped (the pragma cannot say
 * what changed). A process's own writes reach its caches through the local bus at once.
 */
export class SqliteBus implements InvalidationBus {
  private readonly local = new LocalBus();
  private readonly timer: NodeJS.Timeout;
  private version: number;

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly topics: readonly Topic[],
  ) {
    this.version = this.read();
    this.timer = setInterval(() => this.poll(), SQLITE_POLL_MS);
    this.timer.unref();
  }

  private read(): number {
    return Number(this.sqlite.pragma('data_version', { simple: true }));
  }

  private poll(): void {
    let v: number;
    try {
      v = this.read();
    } catch {
      return;
    }
    if (v !== this.version) {
      this.version = v;
      for (const t of this.topics) this.local.publish(t);
    }
  }

  publish(topic: Topic): void {
    this.local.publish(topic);
  }

  subscribe(listener: (topic: Topic) => void): () => void {
    return this.local.subscribe(listener);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.local.close();
  }
}
