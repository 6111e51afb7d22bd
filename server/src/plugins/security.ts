import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Security headers on every answer (docs/product.md §14). COOP is same-origin-allow-popups: helmet's
 * default same-origin would sever window.opener for the login popup.
 */
const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'https:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  crossOriginEmbedderPolicy: false,
  crossOriginResourcePolicy: { policy: 'same-origin' },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  strictTransportSecurity: false,
  xFrameOptions: { action: 'deny' },
};

/**
 * The headers helmet sets for HELMET_OPTIONS, worked out once. Our policy has no per-request part
 * (no nonces), and running helmet's middleware on every request re-parsed the CSP each time: about
 * 7% of the server's time on the cached API answers.
 */
export function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let done = false;
  helmet(HELMET_OPTIONS)({} as IncomingMessage, response as unknown as ServerResponse, () => {
    done = true;
  });
  // NOTE: helmet's middleware is synchronous for static options; fail loudly if that ever changes.
  if (!done || !headers['content-security-policy'])
    throw new Error('helmet did not produce the security headers');
  return headers;
}

/**
 * What a JSON answer needs (OWASP's REST cheat sheet): it is never a document, so its policy
 * allows nothing to load and nothing to frame it, and the headers that only mean something to a
 * page (helmet's legacy X-XSS-Protection, X-Download-Options, X-DNS-Prefetch-Control, ...) are left
 * out. Every API call carries a third as many header bytes, which every student's refresh pays.
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-opener-policy': 'same-origin-allow-popups',
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** Whether an answer is JSON, or an empty answer (304) of the JSON API. */
function isApiAnswer(url: string, contentType: unknown): boolean {
  if (typeof contentType === 'string') return contentType.startsWith('application/json');
  return contentType === undefined && url.startsWith('/api/');
}

/**
 * Every answer gets its security headers once its type is known: JSON answers the API set,
 * everything else (pages, the OAuth callback page, scripts, downloads) helmet's full set. A header
 * the route set itself is left as it is.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const documentHeaders = securityHeaders();
  const api = Object.entries(API_HEADERS);
  const document = Object.entries(documentHeaders);
  app.addHook('onSend', (request, reply, payload, done) => {
    // A route's own choice stands (the OAuth callback page sends no Referer at all).
    for (const [name, value] of isApiAnswer(request.url, reply.getHeader('content-type')) ? api : document) {
      if (!reply.hasHeader(name)) void reply.header(name, value);
    }
    done(null, payload);
  });
}
