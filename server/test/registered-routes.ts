import type { FastifyInstance } from 'fastify';

/**
 * Every route the app registered, as `METHOD /path`, read from Fastify's own route tree, so a
 * suite that must cover "every POST" also covers a route someone adds outside the contract.
 */
export function registeredRoutes(app: FastifyInstance): { method: string; path: string }[] {
  const lines = app.printRoutes({ commonPrefix: false }).split('\n');
  const parents: string[] = [];
  const routes: { method: string; path: string }[] = [];
  for (const line of lines) {
    const m = /^([│ ]*)[├└]── (.+?) \(([^)]+)\)$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    const full = (depth > 0 ? parents[depth - 1]! : '') + m[2]!;
    parents[depth] = full;
    for (const method of m[3]!.split(',').map((s) => s.trim())) routes.push({ method, path: full });
  }
  return routes;
}
