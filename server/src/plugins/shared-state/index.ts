import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { DatabaseHandle } from '../../db/connect.js';
import type { Clock } from '../../lib/clock.js';
import { ALL_TOPICS, type InvalidationBus } from '../../lib/invalidation.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import { DatabaseRateLimiter } from './database-rate-limiter.js';
import { LoneProcessRateLimiter } from './lone-process-rate-limiter.js';
import { PostgresBus } from './postgres-bus.js';
import { RedisBus } from './redis-bus.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';
import { SqliteBus } from './sqlite-bus.js';

export interface SharedState {
  bus: InvalidationBus;
  limiter: RateLimiter;
  /** null when no Redis is configured; otherwise whether it answers now. */
  redisReady(): boolean | null;
  close(): Promise<void>;
}

/**
 * What several processes must share so they behave as one (docs/architecture.md): cache invalidation
 * and attempt counting. With REDIS_URL both go through Redis; without it, through the database
 * itself (PostgreSQL LISTEN/NOTIFY or a SQLite events file beside the database, and a
 * rate_limits table), except that a process alone on its database counts attempts in memory.
 */
export async function createSharedState(
  config: Config,
  database: DatabaseHandle,
  clock: Clock,
  log: FastifyBaseLogger,
): Promise<SharedState> {
  const now = () => clock.now().getTime();
  const redisUrl = config.redisUrl;
  if (redisUrl) {
    // Imported only when configured: a one-process site does not pay for the client at start-up.
    const { Redis } = await import('ioredis');
    const options = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      lazyConnect: true,
    };
    const publisher = new Redis(redisUrl, options);
    const subscriber = new Redis(redisUrl, { ...options, enableOfflineQueue: true });
    let reported = false;
    const onError = (err: Error) => {
      if (reported) return;
      reported = true;
      log.error(
        `Redis at ${redisUrl.replace(/\/\/[^@]*@/, '//***@')} is unreachable (${err.message}): ` +
          'flag submission answers 503 until it is back',
      );
    };
    publisher.on('error', onError);
    subscriber.on('error', () => {});
    publisher.on('ready', () => {
      if (reported) log.warn('Redis is reachable again');
      reported = false;
    });
    await Promise.all([publisher.connect().catch(onError), subscriber.connect().catch(() => {})]);
    return {
      bus: new RedisBus(publisher, subscriber, config.redisPrefix, ALL_TOPICS),
      limiter: new RedisRateLimiter(publisher, config.redisPrefix, now),
      redisReady: () => publisher.status === 'ready',
      close: async () => {
        publisher.disconnect();
        subscriber.disconnect();
      },
    };
  }
  const databaseLimiter = new DatabaseRateLimiter(database.db, now);
  if (config.database.kind === 'postgres') {
    const pg = new PostgresBus(
      config.database.url,
      { query: (text, values) => database.rawQuery(text, values) },
      ALL_TOPICS,
    );
    await pg.start();
    return {
      bus: pg,
      // Notifications tell whether another process shares the database; until one does,
      // attempts are counted in memory.
      limiter: new LoneProcessRateLimiter(databaseLimiter, () => !pg.hasSiblings, now),
      redisReady: () => null,
      close: async () => {},
    };
  }
  const sqliteBus = await SqliteBus.open(config.database.file, ALL_TOPICS);
  return {
    bus: sqliteBus,
    // The events file knows whether another process shares the database; until one does, attempts
    // are counted in memory.
    limiter: new LoneProcessRateLimiter(databaseLimiter, () => !sqliteBus.hasSiblings, now),
    redisReady: () => null,
    close: async () => {},
  };
}
