import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { connectDatabase, type DatabaseHandle } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { systemClock, type Clock } from './lib/clock.js';
import { DomainEvents } from './lib/domain-events.js';
import { lazyChildLogger } from './lib/lazy-child-logger.js';
import { terminalLogStream } from './lib/log-stream.js';
import { ObservedBus, type InvalidationBus } from './lib/invalidation.js';
import type { RateLimiter } from './lib/rate-limiter.js';
import { registerAdminRoutes } from './modules/admin/admin.routes.js';
import { registerApiDocsRoutes } from './modules/api-docs/api-docs.routes.js';
import { registerChallengeArchiveRoutes } from './modules/challenge-archive/archive.routes.js';
import { registerEventArchiveRoutes } from './modules/event-archive/event-archive.routes.js';
import { registerAnnouncementRoutes } from './modules/announcements/announcements.routes.js';
import { registerWebhookRoutes } from './modules/webhooks/webhooks.routes.js';
import { registerInstanceRoutes } from './modules/instances/instances.routes.js';
import { registerAuditRoutes } from './modules/audit/audit.routes.js';
import { registerAuthRoutes } from './modules/auth/auth.routes.js';
import { registerApiTokenRoutes } from './modules/auth/api-tokens.routes.js';
import { registerEmailAccountRoutes } from './modules/accounts/email-accounts.routes.js';
import { registerChallengeRoutes } from './modules/challenges/challenges.routes.js';
import { registerEventRoutes } from './modules/events/events.routes.js';
import { liveChangesOf, subscribeLiveStream } from './modules/events/events.service.js';
import { ensureEventWindow, subscribeEventState } from './modules/event-state/event-state.service.js';
import { subscribeOutbox } from './modules/webhooks/webhooks.service.js';
import { registerFilesRoutes } from './modules/files/files.routes.js';
import { registerLeaderboardRoutes } from './modules/leaderboard/leaderboard.routes.js';
import { registerMetrics } from './modules/metrics/metrics.routes.js';
import { registerModerationRoutes } from './modules/moderation/moderation.routes.js';
import { registerSubmissionLogRoutes } from './modules/submission-log/submission-log.routes.js';
import { registerRatingRoutes } from './modules/ratings/ratings.routes.js';
import { registerScoreboardRoutes } from './modules/scoreboard/scoreboard.routes.js';
import { registerAwardRoutes } from './modules/awards/awards.routes.js';
import { registerWriteupRoutes } from './modules/writeups/writeups.routes.js';
import { registerSettingsRoutes } from './modules/settings/settings.routes.js';
import { registerDivisionRoutes } from './modules/divisions/divisions.routes.js';
import { registerSiteRoutes } from './modules/site/site.routes.js';
import { registerSubmissionRoutes } from './modules/submissions/submissions.routes.js';
import { registerTeamRoutes } from './modules/teams/teams.routes.js';
import { registerUserRoutes } from './modules/users/users.routes.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerIpRateLimit } from './plugins/ip-rate-limit.js';
import { registerClientAddress } from './plugins/client-address.js';
import { registerOriginCheck } from './plugins/origin-check.js';
import { recordRoutes, type RegisteredRoute } from './plugins/route-table.js';
import { registerSecurityHeaders } from './plugins/security.js';
import { registerSessions } from './plugins/session.js';
import { routeValidatorCompiler } from './plugins/validator.js';
import { createSharedState } from './plugins/shared-state/index.js';
import { registerWebApp } from './plugins/web-app.js';
import { firstViewHook } from './modules/first-view/first-view.service.js';

export interface BuildOptions {
  clock?: Clock;
  /** Reuse an open database (tests share one per file); otherwise one is opened from config. */
  database?: DatabaseHandle;
  bus?: InvalidationBus;
  limiter?: RateLimiter;
  logger?: boolean;
  /** Where log lines go instead of stdout (tests capture them to prove what never gets logged). */
  logStream?: { write(line: string): void };
}

/** JSON bodies are small; the upload route raises its own limit. */
export const JSON_BODY_LIMIT = 64 * 1024;

/** Builds the whole application without listening, so tests can inject or listen as they need. */
export async function buildApp(
  config: Config,
  options: BuildOptions = {},
): Promise<{ app: FastifyInstance; ctx: AppContext; routes: readonly RegisteredRoute[] }> {
  const logging = options.logger !== false && config.logLevel !== 'silent';
  // A test's stream, else readable lines on a terminal, else JSON on stdout.
  const stream = logging ? (options.logStream ?? (await terminalLogStream())) : undefined;
  const app = Fastify({
    logger: logging
      ? {
          level: config.logLevel,
          redact: ['req.headers.cookie', 'req.headers.authorization'],
          ...(stream ? { stream } : {}),
        }
      : false,
    // Per-request lines cost throughput at event start; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    // And a request's logger is made only when it logs.
    childLoggerFactory: lazyChildLogger,
    bodyLimit: JSON_BODY_LIMIT,
    // X-Forwarded-For is believed only from the proxies TRUST_PROXY names; unset, never (the
    // submission log's addresses cannot be forged).
    trustProxy: config.trustProxy,
    return503OnClosing: true,
  });
  app.setValidatorCompiler(routeValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const ownsDatabase = !options.database;
  const database = options.database ?? (await connectDatabase(config.database));
  await migrateToLatest(database.db as never);
  const clock = options.clock ?? systemClock;
  const shared = await createSharedState(config, database, clock, app.log);
  // What this process publishes also becomes a coalesced live event (leaderboard, challenges).
  const bus = new ObservedBus(
    options.bus ?? shared.bus,
    liveChangesOf(() => ctx),
  );
  const ctx: AppContext = {
    config,
    database,
    clock,
    bus,
    domainEvents: new DomainEvents((err, name) => app.log.error({ err }, `'${name}' could not be handled`)),
    limiter: options.limiter ?? shared.limiter,
    log: app.log,
    redisReady: shared.redisReady,
  };

  // Who reacts to what the modules announce (docs/architecture.md, "The port"); each handler's
  // priority orders it: the caches, then the outbox, then the live stream.
  subscribeEventState(ctx);
  subscribeOutbox(ctx);
  subscribeLiveStream(ctx);
  // A new database without EVENT_START and EVENT_END stores its own event window, once.
  await ensureEventWindow(ctx);

  // NOTE: onClose hooks run in the reverse order of their adding (avvio), so the shared resources
  // are released by the first one added: after every module's own hook (the submission log writes
  // its waiting attempts) has run against an open database.
  app.addHook('onClose', async () => {
    await ctx.bus.close();
    await ctx.limiter.close();
    await shared.bus.close();
    await shared.close();
    if (ownsDatabase) await database.close();
  });
  // Every hook and route counts the client by this one address.
  registerClientAddress(app);
  registerErrorHandling(app);
  // Before any route: the API reference reads who may call each route from their registrations.
  const routes = recordRoutes(app);
  // Also before any route: each route gets its own request counter (GET /metrics).
  await registerMetrics(app, ctx);
  // What other processes changed is delivered before anything of the request reads a cache.
  app.addHook('onRequest', (_request, _reply, done) => {
    ctx.bus.sync();
    done();
  });
  await registerSecurityHeaders(app);
  await registerIpRateLimit(app, config);
  registerOriginCheck(app, config.publicOrigin);
  await registerSessions(app, ctx);

  registerAuthRoutes(app, ctx);
  registerApiTokenRoutes(app, ctx);
  registerEmailAccountRoutes(app, ctx);
  registerUserRoutes(app, ctx);
  registerSiteRoutes(app, ctx);
  registerSettingsRoutes(app, ctx);
  registerDivisionRoutes(app, ctx);
  registerTeamRoutes(app, ctx);
  registerAdminRoutes(app, ctx);
  registerAuditRoutes(app, ctx);
  registerModerationRoutes(app, ctx);
  registerSubmissionLogRoutes(app, ctx);
  registerFilesRoutes(app, ctx);
  registerChallengeArchiveRoutes(app, ctx);
  registerWriteupRoutes(app, ctx);
  registerChallengeRoutes(app, ctx);
  registerSubmissionRoutes(app, ctx);
  registerRatingRoutes(app, ctx);
  registerLeaderboardRoutes(app, ctx);
  registerScoreboardRoutes(app, ctx);
  registerAwardRoutes(app, ctx);
  registerEventRoutes(app, ctx);
  registerAnnouncementRoutes(app, ctx);
  registerEventArchiveRoutes(app, ctx);
  registerWebhookRoutes(app, ctx);
  registerInstanceRoutes(app, ctx);
  registerApiDocsRoutes(app, ctx, routes);

  await registerWebApp(app, config.webDist, firstViewHook(ctx, config.webDist));

  return { app, ctx, routes };
}
