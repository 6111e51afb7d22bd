/**
 * Cache invalidation between writers and readers. Every write that changes derived data publishes
 * a topic; every cache subscribes. The in-process bus is enough for one process; the scale-out
 * transports (Redis pub/sub, PostgreSQL LISTEN/NOTIFY, SQLite data_version) implement the same
 * interface so caches never know which one they run on.
 */
export const ALL_TOPICS = [
  'challenges',
  'solves',
  'ratings',
  'teams',
  'users',
  'site',
  'files',
  'sessions',
] as const;
export type Topic = (typeof ALL_TOPICS)[number];

export interface InvalidationBus {
  publish(topic: Topic): void;
  subscribe(listener: (topic: Topic) => void): () => void;
  /**
   * Delivers at once what other processes changed and this one can already see, where the
   * transport can tell synchronously (SQLite's data_version); a no-op for push transports. Caches
   * call it before every read, so a write committed elsewhere is seen by the next read here.
   */
  sync(): void;
  close(): Promise<void>;
}

export class LocalBus implements InvalidationBus {
  private listeners = new Set<(topic: Topic) => void>();
  publish(topic: Topic): void {
    for (const l of this.listeners) l(topic);
  }
  subscribe(listener: (topic: Topic) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  sync(): void {}
  async close(): Promise<void> {
    this.listeners.clear();
  }
}

/**
 * A value computed on demand and kept until one of its topics is published. A build that was
 * running when an invalidation arrived is not kept, so a reader never sees data older than the
 * write it followed.
 */
export class CachedValue<T> {
  private value: { data: T; generation: number } | null = null;
  private generation = 0;
  private pending: Promise<T> | null = null;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly bus: InvalidationBus,
    private readonly topics: readonly Topic[],
    private readonly build: () => Promise<T>,
  ) {
    this.unsubscribe = bus.subscribe((topic) => {
      if (this.topics.includes(topic)) this.invalidate();
    });
  }

  invalidate(): void {
    this.generation += 1;
    this.value = null;
    this.pending = null;
  }

  async get(): Promise<T> {
    this.bus.sync();
    if (this.value && this.value.generation === this.generation) return this.value.data;
    if (this.pending) return this.pending;
    const generation = this.generation;
    const pending = this.build().then(
      (data) => {
        if (this.generation === generation) this.value = { data, generation };
        if (this.pending === pending) this.pending = null;
        return data;
      },
      (err: unknown) => {
        if (this.pending === pending) this.pending = null;
        throw err;
      },
    );
    this.pending = pending;
    return pending;
  }

  dispose(): void {
    this.unsubscribe();
  }
}

/**
 * Values computed on demand per key (a session token, a user), all dropped when one of the topics
 * is published, with the same rule as CachedValue: a build that was running when an invalidation
 * arrived is not kept. At most maxEntries are kept; the least recently used goes first.
 */
export class KeyedCache<K, V> {
  private readonly entries = new Map<K, V>();
  private generation = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly bus: InvalidationBus,
    private readonly topics: readonly Topic[],
    private readonly maxEntries: number,
  ) {
    this.unsubscribe = bus.subscribe((topic) => {
      if (this.topics.includes(topic)) this.invalidate();
    });
  }

  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value of key, built when missing; a built value is kept only when keep(value) says so. */
  async get(key: K, build: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    this.bus.sync();
    if (this.entries.has(key)) {
      const value = this.entries.get(key) as V;
      // Most recently used last, so the first key is the one to evict.
      this.entries.delete(key);
      this.entries.set(key, value);
      return value;
    }
    const generation = this.generation;
    const value = await build();
    if (generation === this.generation && keep(value)) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
      this.entries.set(key, value);
    }
    return value;
  }

  dispose(): void {
    this.unsubscribe();
  }
}
