import { limitResult, windowStart, type RateLimitResult, type RateLimiter } from '../../lib/rate-limiter.js';

/** The counts of one window length's current window: each key's attempts since `start`. */
interface CurrentWindow {
  start: number;
  counts: Map<string, number>;
}

/**
 * Fixed windows counted in this process's memory while it is the only process on its database
 * (as its bus tells: the SQLite events file, PostgreSQL notifications), and by the shared limiter
 * (the database) from the moment another process appears (WORKERS > 1, a second server on the
 * same DATA_DIR, another machine on the same PostgreSQL). A lone process has no one to share
 * counts with, and a submission then writes nothing unless it solves: a wrong-flag burst at the
 * start of an event costs no database write each.
 *
 * Each window length (a minute for flags, ten minutes for registration codes, ...) keeps only its
 * current window, a map of key to count: once that window has ended the whole map is dropped at
 * the next count (of any length), so memory follows recent activity with no sweep of keys, and a
 * short window turning over never touches a longer one's counts. A count is a small integer in the map, not an object of its own: at the start of
 * an event tens of thousands of (player, challenge) keys are counted a minute.
 *
 * NOTE: counts kept in memory are not carried over when a sibling appears, nor across a restart:
 * a player mid-window may get up to one more window's worth of guesses, once.
 */
export class LoneProcessRateLimiter implements RateLimiter {
  private readonly windows = new Map<number, CurrentWindow>();

  constructor(
    private readonly shared: RateLimiter,
    private readonly alone: () => boolean,
    private readonly now: () => number,
  ) {}

  /** Keys counted in the current windows (what the process keeps now). */
  get size(): number {
    let keys = 0;
    for (const window of this.windows.values()) keys += window.counts.size;
    return keys;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    if (!this.alone()) {
      this.windows.clear();
      return this.shared.hit(key, limit, windowMs);
    }
    const now = this.now();
    const start = windowStart(now, windowMs);
    // Windows that have ended go whole, of any length (a handful: flags, codes, email, instances).
    for (const [length, ended] of this.windows) if (ended.start + length <= now) this.windows.delete(length);
    let window = this.windows.get(windowMs);
    if (!window || window.start !== start) {
      window = { start, counts: new Map() };
      this.windows.set(windowMs, window);
    }
    const count = (window.counts.get(key) ?? 0) + 1;
    window.counts.set(key, count);
    return limitResult(count, limit, start, windowMs, now);
  }

  async close(): Promise<void> {
    this.windows.clear();
    await this.shared.close();
  }
}
