/**
 * Cache invalidation between writers and readers. Every write that changes derived data publishes
 * a topic; every cache subscribes. The in-process bus is enough for one process; the scale-out
 * transports (Redis pub/sub, PostgreSQL LISTEN/NOTIFY, a SQLite events file) implement the same
 * interface so caches never know which one they run on.
 */
export const ALL_TOPICS = [
  'challenges',
  'solves',
  'solves-added',
  'unlocks-added',
  'awards',
  'awards-added',
  'ratings',
  'teams',
  'users',
  'site',
  'files',
  'sessions',
  'live-events',
  'live-events-withdrawn',
  'announcements',
] as const;
export type Topic = (typeof ALL_TOPICS)[number];
// 'solves': solves changed in any way; 'solves-added': new solves were recorded and nothing else
// changed (a correct flag), which a cache may apply without reading everything again.
// 'unlocks-added': a competitor unlocked a hint (its cost leaves its score), applied the same way.
// 'awards-added': an admin gave an award (issue 31), applied the same way; 'awards': one was deleted.
// A new player's account publishes nothing: nothing kept can hold it yet (no session, no solve, no
// team, on no board), so a start-of-event rush of sign-ins costs the others nothing (not even the
// SQLite bus's row an event). A new admin is 'users'.
// 'live-events': rows were added to the live event log (modules/events); every process sends them.
// 'live-events-withdrawn': rows were removed from it (a deleted announcement, a hidden or banned
// competitor's first blood); every process drops them from its replay window.

export interface InvalidationBus {
  publish(topic: Topic): void;
  subscribe(listener: (topic: Topic) => void): () => void;
  /**
   * Delivers at once what other processes published and this one can already see, where the
   * transport can tell synchronously (SQLite's events file); a no-op for push transports. Called
   * at the start of every request (app.ts), so a write committed elsewhere is seen by the next
   * request here.
   */
  sync(): void;
  /**
   * Whether this process hears what the others publish now. False while its channel is down
   * (Redis unreachable, the PostgreSQL LISTEN connection lost): what it keeps about sessions,
   * roles, bans and tokens is then not trusted, since a revocation elsewhere would not reach it.
   * It turns true again only once the channel is back AND every cache was dropped after that.
   */
  hearsOthers(): boolean;
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
  /** One process: there is nobody else to hear. */
  hearsOthers(): boolean {
    return true;
  }
  async close(): Promise<void> {
    this.listeners.clear();
  }
}

/**
 * A bus that also tells a listener what THIS process publishes (never what it hears from others):
 * the live event stream turns local writes into one coalesced event each (modules/events), which
 * must happen once, in the process that wrote.
 */
export class ObservedBus implements InvalidationBus {
  constructor(
    private readonly inner: InvalidationBus,
    private readonly onPublish: (topic: Topic) => void,
  ) {}
  publish(topic: Topic): void {
    this.inner.publish(topic);
    this.onPublish(topic);
  }
  subscribe(listener: (topic: Topic) => void): () => void {
    return this.inner.subscribe(listener);
  }
  sync(): void {
    this.inner.sync();
  }
  hearsOthers(): boolean {
    return this.inner.hearsOthers();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * What a KeyedCache does with writes that change only some of its entries: on one of topics it
 * asks stale() which kept entries the change touched and drops those; stale() answers null when
 * it cannot tell, and then every entry goes.
 */
export interface PartialInvalidation<K, V> {
  topics: readonly Topic[];
  stale(): Promise<((key: K, value: V) => boolean) | null>;
}

/**
 * Values computed on demand per key (a session token, a user), all dropped when one of the topics
 * is published, or only the touched ones for a partial topic; a build that was running when an
 * invalidation arrived is not kept. At most maxEntries are kept; the least recently used goes first.
 * While `trusted()` answers false (the bus cannot hear the other processes), every get builds
 * afresh and keeps nothing: what is kept could be a revoked session or an old role.
 */
export class KeyedCache<K, V> {
  private readonly entries = new Map<K, V>();
  private readonly building = new Map<K, { generation: number; value: Promise<V> }>();
  private generation = 0;
  private partialPending = false;
  private checking: Promise<void> | null = null;
  private readonly unsubscribe: () => void;

  constructor(
    bus: InvalidationBus,
    private readonly topics: readonly Topic[],
    private readonly maxEntries: number,
    private readonly partial: PartialInvalidation<K, V> | null = null,
    private readonly trusted: () => boolean = () => true,
  ) {
    this.unsubscribe = bus.subscribe((topic) => {
      if (this.topics.includes(topic)) this.invalidate();
      else if (this.partial?.topics.includes(topic)) {
        // Builds running now may have read what is about to be dropped: they are not kept.
        this.generation += 1;
        this.partialPending = true;
      }
    });
  }

  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The kept value of key when it may be answered at once, without a promise: the cache is
   * trusted, no partial drop is pending and the key is kept. Undefined otherwise: then get().
   */
  peek(key: K): V | undefined {
    if (this.partialPending || this.checking || !this.trusted()) return undefined;
    const value = this.entries.get(key);
    if (value !== undefined) this.touch(key, value);
    return value;
  }

  /**
   * Marks a key just used: most recently used last, so the first key is the one to evict. Below
   * half the capacity nothing is evicted soon and the move (a delete and an insert, ~0.5 µs in a
   * map of thousands, at every kept session's request) is skipped: once past half, the entries
   * used since come last, and only those unused since keep their order of arrival.
   */
  private touch(key: K, value: V): void {
    if (this.entries.size * 2 < this.maxEntries) return;
    this.entries.delete(key);
    this.entries.set(key, value);
  }

  /** The value of key, built when missing; a built value is kept only when keep(value) says so. */
  async get(key: K, build: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    if (!this.trusted()) {
      // Not read, not kept: the bus drops everything when it hears again (hearsOthers).
      this.invalidate();
      return build();
    }
    // A read never answers an entry that a partial publication before it touched.
    while (this.partialPending || this.checking) await (this.checking ?? this.dropStale());
    if (this.entries.has(key)) {
      const value = this.entries.get(key) as V;
      this.touch(key, value);
      return value;
    }
    // Readers of a key already being built since the last invalidation share that build (a
    // player's first requests arrive together): the same value each would have built.
    const generation = this.generation;
    const pending = this.building.get(key);
    if (pending && pending.generation === generation) return pending.value;
    const value = build();
    this.building.set(key, { generation, value });
    try {
      const built = await value;
      if (generation === this.generation && keep(built) && this.trusted()) {
        if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
        this.entries.set(key, built);
      }
      return built;
    } finally {
      if (this.building.get(key)?.value === value) this.building.delete(key);
    }
  }

  private dropStale(): Promise<void> {
    this.partialPending = false;
    const checking = this.partial!.stale().then(
      (isStale) => {
        if (!isStale) return this.invalidate();
        for (const [key, value] of this.entries) if (isStale(key, value)) this.entries.delete(key);
      },
      () => this.invalidate(),
    );
    this.checking = checking.finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  dispose(): void {
    this.unsubscribe();
  }
}

/**
 * A value that some writes change in a way it can apply cheaply (update) and others only by
 * building it again (build). Publishing one of topics.full means build; one of topics.delta,
 * update from the kept value. A read after a publication never answers the value from before it:
 * the flags a publication sets are cleared only by a build or update started after it.
 * An update must be safe to run on any kept value, however old: it reads what changed since the
 * value's own snapshot, and falls back to a build when it cannot tell.
 */
export class IncrementalValue<T> {
  private value: T | null = null;
  /** Whether value holds a built value: a built value may itself be null (no freeze, no logo). */
  private hasValue = false;
  private needsBuild = true;
  private needsUpdate = false;
  private pending: Promise<T> | null = null;
  /** Builds and updates are numbered; a value never replaces one from a later start. */
  private started = 0;
  private keptFrom = 0;
  private readonly unsubscribe: () => void;

  constructor(
    bus: InvalidationBus,
    private readonly topics: { full: readonly Topic[]; delta: readonly Topic[] },
    private readonly build: () => Promise<T>,
    private readonly update: (kept: T) => Promise<T>,
    private readonly expiry: ValueExpiry<T> | null = null,
  ) {
    this.unsubscribe = bus.subscribe((topic) => {
      if (this.topics.full.includes(topic)) this.invalidate();
      else if (this.topics.delta.includes(topic)) {
        this.needsUpdate = true;
        this.pending = null;
      }
    });
  }

  invalidate(): void {
    this.needsBuild = true;
    this.pending = null;
  }

  async get(): Promise<T> {
    if (this.hasValue && this.expiry && !this.needsBuild) {
      // A value that depends on the clock (a scheduled release) is built again at its next
      // transition, with no write to announce it (docs/product.md §15: time is a read-time input).
      const at = this.expiry.at(this.value as T);
      if (at !== null && this.expiry.now() >= at) this.invalidate();
    }
    // NOTE: pending first: a build or update in flight started after the last publication (a
    // publication drops it), so while it runs the kept value is from before that publication.
    if (this.pending) return this.pending;
    if (this.hasValue && !this.needsBuild && !this.needsUpdate) return this.value as T;
    const full = this.needsBuild || !this.hasValue;
    const kept = this.value as T;
    this.needsBuild = false;
    this.needsUpdate = false;
    const run = ++this.started;
    const pending = (full ? this.build() : this.update(kept)).then(
      (data) => {
        // Kept even when a publication overtook it (its flag is set again): it is a correct
        // value as of its own snapshot, and the base the next update starts from.
        if (run > this.keptFrom) {
          this.value = data;
          this.hasValue = true;
          this.keptFrom = run;
        }
        if (this.pending === pending) this.pending = null;
        return data;
      },
      (err: unknown) => {
        this.needsBuild = true;
        if (this.pending === pending) this.pending = null;
        throw err;
      },
    );
    this.pending = pending;
    return pending;
  }

  /** The value kept now, however stale; null before the first build. */
  get current(): T | null {
    return this.value;
  }

  /**
   * The kept value at once when there is one, starting a due update or build in the background;
   * only the first value is waited for. For a reader whose answer is settled again by the
   * database (the solved check before a flag is compared: the unique rule refuses a second solve),
   * so that it never waits behind a read of what other processes changed.
   */
  async getKept(): Promise<T> {
    if (!this.hasValue) return this.get();
    if (this.needsBuild || this.needsUpdate) this.get().catch(() => {});
    return this.value as T;
  }

  dispose(): void {
    this.unsubscribe();
  }
}

/**
 * A value computed on demand and kept until one of its topics is published: an IncrementalValue
 * with nothing to apply, so every publication means building it again.
 */
export class CachedValue<T> extends IncrementalValue<T> {
  constructor(
    bus: InvalidationBus,
    topics: readonly Topic[],
    build: () => Promise<T>,
    expiry: ValueExpiry<T> | null = null,
  ) {
    super(bus, { full: topics, delta: [] }, build, build, expiry);
  }
}

/** When a kept value stops being true by the clock alone: `at(value)` in ms, null for never. */
export interface ValueExpiry<T> {
  now: () => number;
  at: (value: T) => number | null;
}
