import type { FastifyInstance } from 'fastify';
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

/** Works out `request.clientAddress` first thing, before any hook or route can use an address. */
export function registerClientAddress(app: FastifyInstance): void {
  app.decorateRequest('clientAddress', '');
  app.addHook('onRequest', async (request) => {
    request.clientAddress =
      normaliseAddress(request.ip) ?? normaliseAddress(request.socket.remoteAddress) ?? 'unknown';
  });
}
