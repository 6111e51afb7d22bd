import type { FastifyInstance } from 'fastify';
import { DomainError } from '../lib/errors.js';

/**
 * Every state-changing request must come from our own pages: its Origin (or, failing that, its
 * Referer) must be PUBLIC_URL's origin (DESIGN.md §3). This is the CSRF defence on top of
 * SameSite=Lax cookies.
 */
export function registerOriginCheck(app: FastifyInstance, publicOrigin: string): void {
  app.addHook('onRequest', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
    const origin = request.headers.origin;
    let source: string | undefined;
    if (typeof origin === 'string' && origin !== 'null') {
      source = origin;
    } else if (typeof request.headers.referer === 'string') {
      try {
        source = new URL(request.headers.referer).origin;
      } catch {
        source = undefined;
      }
    }
    if (source !== publicOrigin) {
      throw new DomainError(
        'forbidden',
        'Cross-site request refused: the Origin header does not match this site',
      );
    }
  });
}
