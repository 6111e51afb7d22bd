import type { Redis } from 'ioredis';
import { DomainError } from '../../lib/errors.js';
import { limitResult, windowStart, type RateLimitResult, type RateLimiter } from '../../lib/rate-limiter.js';

/**
 * Fixed windows counted in Redis, shared by every process. When Redis is unreachable the limiter
 * fails closed: the caller gets 503 rather than unlimited guesses.
 */
export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly now: () => number,
  ) {}

  private key(key: string, windowMs: number): { k: string; start: number } {
    const start = windowStart(this.now(), windowMs);
    return { k: `${this.prefix}rl:${key}:${start}`, start };
  }

  private unavailable(): DomainError {
    return new DomainError(
      'unavailable',
      'Flag checking is temporarily unavailable. Please try again in a moment.',
    );
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    if (this.redis.status !== 'ready') throw this.unavailable();
    const { k, start } = this.key(key, windowMs);
    let count: number;
    try {
      const res = await this.redis
        .multi()
        .incr(k)
        .pexpire(k, windowMs + 1000)
        .exec();
      count = Number(res?.[0]?.[1] ?? 0);
    } catch {
      throw this.unavailable();
    }
    return limitResult(count, limit, start, windowMs, this.now());
  }

  async close(): Promise<void> {}
}
