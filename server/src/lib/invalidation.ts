/**
 * Cache invalidation between writers and readers. Every write that changes derived data publishes
 * a topic; every cache subscribes. The in-process bus is enough for one process; the scale-out
 * transports (Redis pub/sub, PostgreSQL LISTEN/NOTIFY, SQLite data_version) implement the same
 * interface so caches never know which one they run on.
 */
export const ALL_TOPICS = ['challenges', 'solves', 'ratings', 'teams', 'users', 'site', 'files'] as const;
export type Topic = (typeof ALL_TOPICS)[number];

export interface InvalidationBus {
  publish(topic: Topic): void;
  subscribe(listener: (topic: Topic) => void): () => void;
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
    bus: InvalidationBus,
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
