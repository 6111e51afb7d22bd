import type { FastifyInstance, FastifySchema } from 'fastify';
import type { Access } from './route.js';

/** A route as it was registered: what the API reference reads its access from, and tests walk. */
export interface RegisteredRoute {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
  /** route()'s access; undefined for routes registered by hand (their access is the catalogue's). */
  access: Access | undefined;
  /** Whether the caller is never looked up (route()'s 'anonymous', or a hand route's config). */
  anonymous: boolean;
}

/**
 * Records every route registered after this call (the hook is inherited by every plugin scope
 * registered later). Fastify offers no list of routes with their options, only this hook.
 */
export function recordRoutes(app: FastifyInstance): RegisteredRoute[] {
  const table: RegisteredRoute[] = [];
  app.addHook('onRoute', (options) => {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    for (const method of methods) {
      table.push({
        method: String(method),
        url: options.url,
        schema: options.schema,
        access: options.config?.access,
        anonymous: options.config?.anonymous === true,
      });
    }
  });
  return table;
}
