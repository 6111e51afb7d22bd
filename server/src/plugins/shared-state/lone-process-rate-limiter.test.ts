import { describe, expect, it } from 'vitest';
import type { RateLimiter, RateLimitResult } from '../../lib/rate-limiter.js';
import { LoneProcessRateLimiter } from './lone-process-rate-limiter.js';

/** A shared limiter that records what reached it. */
function recordingLimiter(): RateLimiter & { keys: string[] } {
  const keys: string[] = [];
  return {
    keys,
    hit: async (key): Promise<RateLimitResult> => {
      keys.push(key);
      return { allowed: true, count: 1, retryAfterSeconds: 60 };
    },
    close: async () => {},
  };
}

describe('LoneProcessRateLimiter', () => {
  it('counts in memory while alone: the limit holds, a new window starts again', async () => {
    let now = 120_000;
    const shared = recordingLimiter();
    const limiter = new LoneProcessRateLimiter(
      shared,
      () => true,
      () => now,
    );
    const results = [];
    for (let i = 0; i < 11; i++) results.push(await limiter.hit('k', 10, 60_000));
    expect(results.map((r) => r.allowed)).toEqual([...Array(10).fill(true), false]);
    expect(results[10]!.count).toBe(11);
    expect(results[10]!.retryAfterSeconds).toBe(60);
    // Another key has its own count.
    expect((await limiter.hit('other', 10, 60_000)).count).toBe(1);
    now += 60_000;
    expect(await limiter.hit('k', 10, 60_000)).toMatchObject({ allowed: true, count: 1 });
    expect(shared.keys).toEqual([]);
  });

  it('keeps a longer window while shorter ones turn over, and only the current windows', async () => {
    let now = 600_000;
    const limiter = new LoneProcessRateLimiter(
      recordingLimiter(),
      () => true,
      () => now,
    );
    // A ten-minute limit (registration codes) reached in its first minute.
    for (let i = 0; i < 3; i++) await limiter.hit('code:1.2.3.4', 3, 600_000);
    // Minutes later, flags counted in one-minute windows, each minute a new window.
    for (let minute = 1; minute <= 5; minute++) {
      now = 600_000 + minute * 60_000;
      for (let user = 0; user < 100; user++) await limiter.hit(`flag:${user}:1`, 10, 60_000);
      // The ten-minute window still holds its three attempts: the fourth is refused.
      expect(await limiter.hit('code:1.2.3.4', 3, 600_000)).toMatchObject({
        allowed: false,
        count: 3 + minute,
      });
      // Only this minute's flag keys are kept beside the ten-minute window's one.
      expect(limiter.size).toBe(101);
    }
    // The ten-minute window ends: its key goes with it at the next count, whatever its length.
    now = 1_200_000;
    await limiter.hit('flag:0:1', 10, 60_000);
    expect(limiter.size).toBe(1);
    expect(await limiter.hit('code:1.2.3.4', 3, 600_000)).toMatchObject({ allowed: true, count: 1 });
  });

  it('hands every count to the shared limiter once another process shares the database', async () => {
    let alone = true;
    const shared = recordingLimiter();
    const limiter = new LoneProcessRateLimiter(
      shared,
      () => alone,
      () => 0,
    );
    await limiter.hit('k', 10, 60_000);
    alone = false;
    await limiter.hit('k', 10, 60_000);
    await limiter.hit('j', 10, 60_000);
    expect(shared.keys).toEqual(['k', 'j']);
  });
});
