import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/connect.js';
import type { Clock } from './lib/clock.js';
import type { DomainEvents } from './lib/domain-events.js';
import type { InvalidationBus } from './lib/invalidation.js';
import type { RateLimiter } from './lib/rate-limiter.js';

/**
 * What every service receives first: the database, configuration and the shared mechanisms.
 * Services never see Fastify's request or reply.
 */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  /** Tells every process that derived data (caches) went stale. */
  bus: InvalidationBus;
  /**
   * The publish port: what a module announces (a correct flag, a first blood, a setting saved),
   * heard by the modules that react (the live stream, the outbox, the caches).
   */
  domainEvents: DomainEvents;
  /** Counts attempts per key across processes (wrong flags, logins). */
  limiter: RateLimiter;
  log: FastifyBaseLogger;
  /** null without REDIS_URL; else whether Redis answers now (health check). */
  redisReady(): boolean | null;
}
