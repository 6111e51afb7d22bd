import { describe, expect, it } from 'vitest';
import { CachedValue, IncrementalValue, KeyedCache, LocalBus } from './invalidation.js';

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('CachedValue', () => {
  it('builds once, then again after one of its topics', async () => {
    const bus = new LocalBus();
    let builds = 0;
    const cache = new CachedValue(bus, ['solves'], async () => ++builds);
    expect(await cache.get()).toBe(1);
    expect(await cache.get()).toBe(1);
    bus.publish('ratings');
    expect(await cache.get()).toBe(1);
    bus.publish('solves');
    expect(await cache.get()).toBe(2);
  });

  it('keeps a value that is null (no freeze set, no logo) instead of building it at every read', async () => {
    const bus = new LocalBus();
    let builds = 0;
    const cache = new CachedValue<string | null>(bus, ['site'], async () => {
      builds += 1;
      return null;
    });
    expect(await cache.get()).toBeNull();
    expect(await cache.get()).toBeNull();
    expect(builds).toBe(1);
    bus.publish('site');
    expect(await cache.get()).toBeNull();
    expect(builds).toBe(2);
  });

  it('answers a read made while the build after a publication runs with that build, not the kept value', async () => {
    const bus = new LocalBus();
    const next = deferred<string | null>();
    let builds = 0;
    const cache = new CachedValue<string | null>(bus, ['site'], async () =>
      ++builds === 1 ? null : next.promise,
    );
    expect(await cache.get()).toBeNull();
    bus.publish('site');
    const first = cache.get();
    const second = cache.get();
    next.resolve('2026-01-10T12:00:00.000Z');
    expect(await first).toBe('2026-01-10T12:00:00.000Z');
    expect(await second).toBe('2026-01-10T12:00:00.000Z');
    expect(builds).toBe(2);
  });

  it('answers a kept value at once (peek), and nothing while it may not be trusted or is being checked', async () => {
    const bus = new LocalBus();
    let trusted = true;
    let stale: (key: string) => boolean = () => false;
    const cache = new KeyedCache<string, string>(
      bus,
      ['users'],
      10,
      { topics: ['solves-added'], stale: async () => stale },
      () => trusted,
    );
    expect(cache.peek('a')).toBeUndefined();
    await cache.get('a', async () => 'a1');
    expect(cache.peek('a')).toBe('a1');
    trusted = false;
    expect(cache.peek('a')).toBeUndefined();
    trusted = true;
    // A partial drop pending: only get() waits for it and answers what survives.
    stale = (key) => key === 'a';
    bus.publish('solves-added');
    expect(cache.peek('a')).toBeUndefined();
    expect(await cache.get('a', async () => 'a2')).toBe('a2');
    expect(cache.peek('a')).toBe('a2');
    bus.publish('users');
    expect(cache.peek('a')).toBeUndefined();
  });

  it('keeps the recently used past half its size', async () => {
    const cache = new KeyedCache<number, number>(new LocalBus(), ['users'], 4);
    let builds = 0;
    const build = (v: number) => async () => (builds++, v);
    for (const k of [1, 2]) await cache.get(k, build(k));
    expect(cache.peek(1)).toBe(1); // half full: 1 moves last
    for (const k of [3, 4, 5]) await cache.get(k, build(k)); // 5 evicts 2, the least recently used
    expect(builds).toBe(5);
    expect(cache.peek(1)).toBe(1);
    expect(cache.peek(2)).toBeUndefined();
  });

  it('does not keep a build that an invalidation overtook', async () => {
    const bus = new LocalBus();
    const slow = deferred<string>();
    let calls = 0;
    const cache = new CachedValue(bus, ['solves'], () =>
      ++calls === 1 ? slow.promise : Promise.resolve('fresh'),
    );
    const first = cache.get();
    bus.publish('solves');
    slow.resolve('stale');
    expect(await first).toBe('stale');
    expect(await cache.get()).toBe('fresh');
  });
});

describe('IncrementalValue.getKept', () => {
  it('waits for the first value only; later answers the kept one at once and brings it up to date behind', async () => {
    const bus = new LocalBus();
    const update = deferred<number>();
    const cache = new IncrementalValue(
      bus,
      { full: ['solves'], delta: ['solves-added'] },
      async () => 1,
      () => update.promise,
    );
    expect(cache.current).toBeNull();
    expect(await cache.getKept()).toBe(1);
    bus.publish('solves-added');
    // The update has started but not finished: the kept value, without waiting.
    expect(await cache.getKept()).toBe(1);
    update.resolve(2);
    await new Promise((r) => setTimeout(r, 0));
    expect(cache.current).toBe(2);
    expect(await cache.getKept()).toBe(2);
    // get() still never answers a value from before a publication.
    bus.publish('solves');
    expect(await cache.get()).toBe(1);
  });

  it('keeps answering the kept value when a background update fails, and builds at the next read', async () => {
    const bus = new LocalBus();
    let builds = 0;
    const cache = new IncrementalValue(
      bus,
      { full: [], delta: ['solves-added'] },
      async () => ++builds * 10,
      () => Promise.reject(new Error('database away')),
    );
    expect(await cache.getKept()).toBe(10);
    bus.publish('solves-added');
    expect(await cache.getKept()).toBe(10);
    await new Promise((r) => setTimeout(r, 0));
    expect(await cache.get()).toBe(20);
  });
});

describe('KeyedCache', () => {
  it('shares a build in progress, but never one an invalidation overtook', async () => {
    const bus = new LocalBus();
    const cache = new KeyedCache<string, string>(bus, ['users'], 10);
    let builds = 0;
    const releases: (() => void)[] = [];
    const build = () => () =>
      new Promise<string>((resolve) => {
        const n = ++builds;
        releases.push(() => resolve(`v${n}`));
      });
    const first = cache.get('a', build());
    const second = cache.get('a', build());
    await Promise.resolve();
    expect(builds).toBe(1);
    bus.publish('users'); // written meanwhile: a reader from now on must not get that build
    const third = cache.get('a', build());
    await Promise.resolve();
    expect(builds).toBe(2);
    for (const release of releases) release();
    expect(await first).toBe('v1');
    expect(await second).toBe('v1');
    expect(await third).toBe('v2');
    expect(await cache.get('a', build())).toBe('v2');
    expect(builds).toBe(2);
  });

  it('keeps one value per key until a topic drops them all', async () => {
    const bus = new LocalBus();
    const cache = new KeyedCache<string, string>(bus, ['users'], 10);
    let builds = 0;
    const build = (v: string) => async () => `${v}${++builds}`;
    expect(await cache.get('a', build('a'))).toBe('a1');
    expect(await cache.get('a', build('a'))).toBe('a1');
    expect(await cache.get('b', build('b'))).toBe('b2');
    bus.publish('teams');
    expect(await cache.get('a', build('a'))).toBe('a1');
    bus.publish('users');
    expect(cache.size).toBe(0);
    expect(await cache.get('a', build('a'))).toBe('a3');
  });

  it('evicts the least recently used beyond its size and skips what keep() refuses', async () => {
    const cache = new KeyedCache<number, number | null>(new LocalBus(), ['users'], 2);
    let builds = 0;
    const build = (v: number | null) => async () => (builds++, v);
    await cache.get(1, build(1));
    await cache.get(2, build(2));
    await cache.get(1, build(1)); // 1 most recent
    await cache.get(3, build(3)); // evicts 2
    expect(builds).toBe(3);
    await cache.get(1, build(1));
    await cache.get(3, build(3));
    expect(builds).toBe(3);
    await cache.get(2, build(2));
    expect(builds).toBe(4);
    await cache.get(9, build(null), (v) => v !== null);
    await cache.get(9, build(null), (v) => v !== null);
    expect(builds).toBe(6);
  });

  it('does not keep a build that an invalidation overtook', async () => {
    const bus = new LocalBus();
    const cache = new KeyedCache<string, string>(bus, ['sessions'], 10);
    const slow = deferred<string>();
    const first = cache.get('k', () => slow.promise);
    bus.publish('sessions');
    slow.resolve('stale');
    expect(await first).toBe('stale');
    expect(await cache.get('k', async () => 'fresh')).toBe('fresh');
  });

  it('drops only the entries a partial publication touched, all of them when it cannot tell', async () => {
    const bus = new LocalBus();
    let touched: Set<string> | null = new Set(['a']);
    let checks = 0;
    const cache = new KeyedCache<string, string>(bus, ['users'], 10, {
      topics: ['solves-added'],
      stale: async () => {
        checks += 1;
        const keys = touched;
        return keys ? (key) => keys.has(key) : null;
      },
    });
    let builds = 0;
    const build = (v: string) => async () => `${v}${++builds}`;
    await cache.get('a', build('a'));
    await cache.get('b', build('b'));
    bus.publish('solves-added');
    bus.publish('solves-added');
    expect(await cache.get('b', build('b'))).toBe('b2');
    expect(await cache.get('a', build('a'))).toBe('a3');
    expect(checks).toBe(1);
    touched = null;
    bus.publish('solves-added');
    expect(await cache.get('b', build('b'))).toBe('b4');
    expect(cache.size).toBe(1);
  });

  it('does not keep a build that a partial publication overtook, nor answer before the check', async () => {
    const bus = new LocalBus();
    const check = deferred<(key: string) => boolean>();
    const cache = new KeyedCache<string, string>(bus, ['users'], 10, {
      topics: ['solves-added'],
      stale: () => check.promise,
    });
    const slow = deferred<string>();
    const first = cache.get('k', () => slow.promise);
    bus.publish('solves-added');
    slow.resolve('stale');
    expect(await first).toBe('stale');
    let answered = false;
    const next = cache.get('k', async () => 'fresh').then((v) => ((answered = true), v));
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    check.resolve(() => false);
    expect(await next).toBe('fresh');
  });
});

describe('expiry by the clock', () => {
  it('builds again once the clock passes the value’s next transition, with no publication', async () => {
    const bus = new LocalBus();
    let now = 1000;
    let builds = 0;
    const cache = new CachedValue(
      bus,
      ['challenges'],
      async () => ({ built: ++builds, until: now < 2000 ? 2000 : null }),
      { now: () => now, at: (v) => v.until },
    );
    expect((await cache.get()).built).toBe(1);
    now = 1999;
    expect((await cache.get()).built).toBe(1);
    now = 2000;
    expect((await cache.get()).built).toBe(2);
    now = 10_000;
    expect((await cache.get()).built).toBe(2);
  });
});
