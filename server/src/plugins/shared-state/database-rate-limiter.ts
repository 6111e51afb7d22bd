import { sql } from 'kysely';
import type { DB } from '../../db/schema.js';
import { limitResult, windowStart, type RateLimitResult, type RateLimiter } from '../../lib/rate-limiter.js';

/**
 * Fixed windows counted in the database (rate_limits), so every process sharing the database
 * shares the limit when no Redis is configured. One row per key; a new window resets it.
 */
export class DatabaseRateLimiter implements RateLimiter {
  private lastSweep = 0;

  constructor(
    private readonly db: DB,
    private readonly now: () => number,
  ) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const start = windowStart(this.now(), windowMs);
    // One statement, atomic on both dialects: a new key starts at 1, the same window adds 1, an
    // older window restarts at 1.
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, window_start: start, count: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`case when rate_limits.window_start = ${start} then rate_limits.count + 1 else 1 end`,
          window_start: start,
        }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    if (start - this.lastSweep > windowMs * 10) {
      this.lastSweep = start;
      await this.db
        .deleteFrom('rate_limits')
        .where('window_start', '<', start - windowMs * 10)
        .execute();
    }
    return limitResult(row.count, limit, start, windowMs, this.now());
  }

  async close(): Promise<void> {}
}
