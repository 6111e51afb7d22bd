import { checkHook } from './check-hook.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../lib/errors.js';
import { personalApiToken } from './session.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by route() for a GET that acts (the contract's `acts`): see checkActingGet. */
    acts?: boolean;
  }
}

const ACTING_GET_REFUSED =
  'Refused: this address acts (or hands out an export) only for the site’s own pages and for links opened in the browser, never for an image, a frame or another site.';

/** The names of this machine's loopback interface a browser may put in an Origin. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The origins that are this site: PUBLIC_URL's, and when PUBLIC_URL is a loopback address (a
 * trial on one's own machine) the same scheme and port under each loopback name too, so
 * `http://127.0.0.1:3000` and `http://[::1]:3000` sign in as `http://localhost:3000` does. Nobody
 * else can reach a loopback address, so no other site gains anything; a public PUBLIC_URL keeps
 * its one origin.
 */
export function siteOrigins(publicOrigin: string): ReadonlySet<string> {
  const url = new URL(publicOrigin);
  const loopback = LOOPBACK_HOSTS.includes(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
  if (!loopback) return new Set([url.origin]);
  const aliases = LOOPBACK_HOSTS.map((host) => {
    const alias = new URL(url.origin);
    alias.hostname = host;
    return alias.origin;
  });
  return new Set([url.origin, ...aliases]);
}

/** The refusal of a state-changing request from elsewhere: it names the address to open. */
export function crossSiteRefusal(publicOrigin: string): string {
  return `Cross-site request refused: the Origin header does not match this site. Open the site at ${publicOrigin} (its PUBLIC_URL) and try again.`;
}

/** The origin a URL header names, or null when it names none. */
function originOf(url: string | undefined): string | null {
  if (url === undefined) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * A GET that acts (logout and force_update, kept GETs by the API of docs/product.md §7; exports, downloads the browser
 * navigates to) answers only a fetch from our own pages or a top-level navigation, as the
 * browser's Fetch Metadata tells: not an `<img>` in a description (`Sec-Fetch-Dest: image`), a
 * frame, or any request another site starts (a cross-site link too, since SameSite=Lax cookies
 * ride along on those). A client that sends no Fetch Metadata (curl, a browser older than 2023)
 * is refused when its Referer names another site.
 */
function checkActingGet(request: FastifyRequest, origins: ReadonlySet<string>): void {
  const header = (name: string) => {
    const v = request.headers[name];
    return typeof v === 'string' ? v.toLowerCase() : undefined;
  };
  const site = header('sec-fetch-site');
  const dest = header('sec-fetch-dest');
  if (site !== undefined || dest !== undefined) {
    const mode = header('sec-fetch-mode');
    const ownFetch = site === 'same-origin' && (dest === 'empty' || dest === 'document');
    const navigation =
      (site === 'none' || site === 'same-origin') && mode === 'navigate' && dest === 'document';
    if (ownFetch || navigation) return;
    throw new DomainError('forbidden', ACTING_GET_REFUSED);
  }
  const referer = originOf(request.headers.referer);
  if (request.headers.referer !== undefined && (referer === null || !origins.has(referer)))
    throw new DomainError('forbidden', ACTING_GET_REFUSED);
}

/**
 * Every state-changing request must come from our own pages: its Origin (or, failing that, its
 * Referer) must be PUBLIC_URL's origin, or on a loopback trial one of its loopback aliases (docs/product.md §11). This is the CSRF defence on top of
 * SameSite=Lax cookies; a request with a personal API token and no cookie needs none. GETs change nothing, except the few the contract marks as acting, which
 * checkActingGet holds to our own pages and top-level navigations.
 */
export function registerOriginCheck(app: FastifyInstance, publicOrigin: string): void {
  const origins = siteOrigins(publicOrigin);
  const refusal = crossSiteRefusal(publicOrigin);
  app.addHook(
    'onRequest',
    checkHook((request) => {
      if (request.method === 'GET' || request.method === 'HEAD') {
        if (request.routeOptions.config.acts === true) checkActingGet(request, origins);
        return;
      }
      if (request.method === 'OPTIONS') return;
      // A script with a personal API token and no cookie cannot be a forged browser request: a page
      // of another site can neither read the token nor add an Authorization header without a CORS
      // preflight, which this site never grants. With a cookie beside it the check stays (a
      // browser's request then looks like any other, whatever the session plugin makes of it).
      if (request.headers.cookie === undefined && personalApiToken(request) !== undefined) return;
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
      if (source === undefined || !origins.has(source)) throw new DomainError('forbidden', refusal);
    }),
  );
}
