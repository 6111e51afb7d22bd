import type SQLite from 'better-sqlite3';
import { LocalBus, type InvalidationBus, type Topic } from '../../lib/invalidation.js';

/** How often another process's commits are looked for. */
export const SQLITE_POLL_MS = 200;

/**
 * Invalidation between processes sharing one SQLite file (WORKERS > 1). PRAGMA data_version
 * changes when another connection commits; then every cache is dropped (the pragma cannot say
 * what changed). It is read before every cache read (sync), so the next read after another
 * process's commit sees it, and every 200 ms besides. A process's own writes reach its caches
 * through the local bus at once.
 */
export class SqliteBus implements InvalidationBus {
  private readonly local = new LocalBus();
  private readonly timer: NodeJS.Timeout;
  private readonly dataVersion: SQLite.Statement;
  private version: number;

  constructor(
    sqlite: SQLite.Database,
    private readonly topics: readonly Topic[],
  ) {
    this.dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
    this.version = this.read();
    this.timer = setInterval(() => this.poll(), SQLITE_POLL_MS);
    this.timer.unref();
  }

  private read(): number {
    return Number(this.dataVersion.get());
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

  sync(): void {
    this.poll();
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
