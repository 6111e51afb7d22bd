import type { FastifyInstance, FastifyRequest } from 'fastify';
import { normaliseAddress } from '../lib/ip.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The client's address as everything counts it (the submission log, the signals, the limits):
     * Fastify's `ip` (X-Forwarded-For's only from a TRUST_PROXY proxy) once it parses as an IP
     * address, in one spelling (lib/ip.ts); anything else a proxy passed on is ignored for the
     * connection's own address.
     */
    clientAddress: string;
  }
}

/**
 * `request.clientAddress`, worked out where it is read (a getter: no hook, so no promise per
 * request, and the many requests that never read an address pay nothing).
 */
export function registerClientAddress(app: FastifyInstance): void {
  app.decorateRequest('clientAddress', {
    getter(this: FastifyRequest): string {
      return normaliseAddress(this.ip) ?? normaliseAddress(this.socket.remoteAddress) ?? 'unknown';
    },
  });
}
