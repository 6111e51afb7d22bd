import { fastifySSE } from '@fastify/sse';
import { LIVE_EVENTS_PATH, LIVE_EVENT_RETRY_MS } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { API_HEADERS } from '../../plugins/security.js';
import { liveEventHub, stopLiveChanges } from './events.service.js';

/**
 * GET /api/events: the public live event stream (Server-Sent Events through @fastify/sse). No
 * login, nothing a visitor could not read. The hub (live-hub.ts) sends the events and the one
 * heartbeat; this route only admits a stream and hands it over.
 */
export function registerEventRoutes(app: FastifyInstance, ctx: AppContext): void {
  const hub = liveEventHub(ctx);
  app.addHook('onReady', async () => {
    await hub.start();
  });
  // Before the server stops accepting: open streams would otherwise hold close() until they end.
  app.addHook('preClose', async () => {
    stopLiveChanges(ctx);
    hub.close();
  });

  void app.register(async (scope) => {
    await scope.register(fastifySSE, { heartbeatInterval: 0 });
    scope.get(
      LIVE_EVENTS_PATH,
      { sse: { kind: 'only', heartbeat: false }, config: { anonymous: true } },
      async (request, reply) => {
        const refusal = hub.refusal(request.clientAddress);
        if (refusal) {
          return reply
            .code(429)
            .header('Retry-After', String(LIVE_EVENT_RETRY_MS / 1000))
            .type('application/json')
            .send({ message: refusal });
        }
        reply.sse.keepAlive();
        for (const [name, value] of Object.entries(API_HEADERS)) void reply.header(name, value);
        reply.sse.sendHeaders(200);
        // From here the hub owns the response; Fastify sends nothing more.
        reply.hijack();
        const lastEventId = request.headers['last-event-id'];
        hub.open(reply.raw, request.clientAddress, typeof lastEventId === 'string' ? lastEventId : undefined);
      },
    );
  });
}
