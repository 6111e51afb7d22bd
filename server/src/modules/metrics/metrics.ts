import type { onResponseHookHandler, RouteOptions } from 'fastify';
import type { AggregatorRegistry, Counter, Histogram, RegistryContentType } from 'prom-client';
import type { AppContext } from '../../context.js';
import { liveEventHub } from '../events/events.service.js';
import { pendingAttemptCount } from '../submission-log/submission-log.service.js';
import { outboxDepth } from '../webhooks/webhooks.service.js';

/** Seconds: from a cached read (~0.1 ms) to a slow export. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface AppMetrics {
  registry: AggregatorRegistry<RegistryContentType>;
  /** An onRoute hook: gives the route its own onResponse hook that counts and times it. */
  instrument(route: RouteOptions): void;
  close(): void;
}

/**
 * This process's metrics (prom-client, loaded only when METRICS_TOKEN is set). The registry is an
 * AggregatorRegistry, so that under WORKERS the primary can ask each worker for it
 * (cluster-metrics.ts). Requests are counted per route by a hook that route owns: it knows its
 * labels' children already, so a request costs two of prom-client's updates and no lookup.
 */
export async function createMetrics(ctx: AppContext): Promise<AppMetrics> {
  const prom = await import('prom-client');
  const registry = new prom.AggregatorRegistry();
  prom.AggregatorRegistry.setRegistries([registry]);
  prom.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });

  const requests = new prom.Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const latency = new prom.Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to its answer, by route and method.',
    labelNames: ['route', 'method'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  new prom.Gauge({
    name: 'ctf_event_streams_open',
    help: 'Open live event streams (GET /api/events).',
    registers: [registry],
    collect() {
      this.set(liveEventHub(ctx).openStreams);
    },
  });
  new prom.Gauge({
    name: 'ctf_submission_log_queue',
    help: 'Flag attempts waiting for their write to the submission log.',
    registers: [registry],
    collect() {
      this.set(pendingAttemptCount(ctx));
    },
  });
  new prom.Gauge({
    name: 'ctf_webhook_outbox_depth',
    help: 'Discord webhook messages waiting in the outbox.',
    registers: [registry],
    // One table for every process: the workers' answers are the same number, not parts of it.
    aggregator: 'max',
    async collect() {
      this.set(await outboxDepth(ctx));
    },
  });

  return {
    registry,
    instrument(route) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const hook = routeHook(requests, latency, route.url, methods.join(','));
      const existing = route.onResponse;
      route.onResponse =
        existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
    },
    close() {
      registry.clear();
    },
  };
}

function routeHook(
  requests: Counter<'route' | 'method' | 'status'>,
  latency: Histogram<'route' | 'method'>,
  route: string,
  method: string,
): onResponseHookHandler {
  const timer = latency.labels(route, method);
  // Children by status code, made on a status's first answer.
  const byStatus = new Map<number, Counter.Internal>();
  return (_request, reply, done) => {
    const status = reply.statusCode;
    let counter = byStatus.get(status);
    if (!counter) {
      counter = requests.labels(route, method, String(status));
      byStatus.set(status, counter);
    }
    counter.inc();
    timer.observe(reply.elapsedTime / 1000);
    done();
  };
}
