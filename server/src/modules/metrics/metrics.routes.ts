import cluster from 'node:cluster';
import { METRICS_PATH } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { constantTimeEqual } from '../../lib/crypto.js';
import { DomainError } from '../../lib/errors.js';
import { clusterMetricsText } from './cluster-metrics.js';
import { createMetrics } from './metrics.js';

/**
 * GET /metrics (Prometheus text format). Off (404, nothing measured, prom-client not even loaded)
 * while METRICS_TOKEN is unset; then only with `Authorization: Bearer <METRICS_TOKEN>`. Call it
 * before any other route is registered: its onRoute hook gives each later route its counter.
 */
export async function registerMetrics(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const token = ctx.config.metricsToken;
  const metrics = token === null ? null : await createMetrics(ctx);
  if (metrics) {
    app.addHook('onRoute', (route) => metrics.instrument(route));
    app.addHook('onClose', async () => metrics.close());
  }
  // The workers' sum under WORKERS (node:cluster); this process's own registry otherwise.
  const inCluster = cluster.isWorker && typeof process.send === 'function';

  app.get(METRICS_PATH, { config: { anonymous: true } }, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    if (token === null || metrics === null) throw new DomainError('not_found', 'Not found');
    const m = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!m || !constantTimeEqual(m[1]!, token)) {
      void reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new DomainError(
        'unauthenticated',
        'A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>).',
      );
    }
    const text = inCluster ? await clusterMetricsText() : await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(text);
  });
}
