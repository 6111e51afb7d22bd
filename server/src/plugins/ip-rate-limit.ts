import { counted } from '@ctf/contract';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/**
 * The optional per-address limit on API calls (IP_RATE_LIMIT_PER_MINUTE; off by default because a
 * campus often shares one address). Counted in Redis when configured, so all processes share it.
 */
export async function registerIpRateLimit(app: FastifyInstance, config: Config): Promise<void> {
  if (config.ipRateLimitPerMinute <= 0) return;
  let redis: import('ioredis').Redis | undefined;
  if (config.redisUrl) {
    const { Redis } = await import('ioredis');
    redis = new Redis(config.redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
    });
  }
  redis?.on('error', () => {});
  await app.register(rateLimit, {
    max: config.ipRateLimitPerMinute,
    timeWindow: 60_000,
    ...(redis ? { redis, nameSpace: `${config.redisPrefix}ip-rl:`, skipOnError: true } : {}),
    keyGenerator: (request) => request.clientAddress,
    allowList: (request) => !request.url.startsWith('/api/'),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Too many requests from this address. Try again in ${counted(Math.ceil(context.ttl / 1000), 'second')}.`,
    }),
  });
  if (redis) app.addHook('onClose', async () => redis.disconnect());
}
