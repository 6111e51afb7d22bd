/**
 * Fixed-window attempt counting, shared by every process (the implementations live in
 * plugins/shared-state: Redis or the database). `hit` counts one attempt atomically and says
 * whether it is still within the limit (count <= limit).
 */
export interface RateLimitResult {
  allowed: boolean;
  count: number;
  /** Seconds until the window resets. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  close(): Promise<void>;
}

/** The start of the fixed window that contains `now`. */
export function windowStart(now: number, windowMs: number): number {
  return now - (now % windowMs);
}

/** The verdict for the count reached in the window that began at `start`. */
export function limitResult(
  count: number,
  limit: number,
  start: number,
  windowMs: number,
  now: number,
): RateLimitResult {
  return {
    allowed: count <= limit,
    count,
    retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)),
  };
}
