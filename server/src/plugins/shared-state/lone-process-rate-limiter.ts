import { limitResult, windowStart, type RateLimitResult, type RateLimiter } from '../../lib/rate-limiter.js';

/**
 * Fixed windows counted in this process's memory while it is the only process on its database
 * (as its bus tells: the SQLite events file, PostgreSQL notifications), and by the shared limiter
 * (the database) from the moment another process appears (WORKERS > 1, a second server on the
 * same DATA_DIR, another machine on the same PostgreSQL). A lone process has no one to share
 * counts with, and a submission then writes nothing unless it solves: a wrong-flag burst at the
 * start of an event costs no database write each.
 *
 * NOTE: counts kept in memory are not carried over when a sibling appears, nor across a restart:
 * a player mid-window may get up to one more window's worth of guesses, once.
 */
export class LoneProcessRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private sweptAt = 0;

  constructor(
    private readonly shared: RateLimiter,
    private readonly alone: () => boolean,
    private readonly now: () => number,
  ) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    if (!this.alone()) {
      this.windows.clear();
      return this.shared.hit(key, limit, windowMs);
    }
    const now = this.now();
    const start = windowStart(now, windowMs);
    this.sweep(start);
    let window = this.windows.get(key);
    if (!window || window.start !== start) {
      window = { start, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return limitResult(window.count, limit, start, windowMs, now);
  }

  /** Once per window: counts of windows that have ended go, so memory follows recent activity. */
  private sweep(start: number): void {
    if (start === this.sweptAt) return;
    this.sweptAt = start;
    for (const [key, window] of this.windows) if (window.start < start) this.windows.delete(key);
  }

  async close(): Promise<void> {
    this.windows.clear();
    await this.shared.close();
  }
}
