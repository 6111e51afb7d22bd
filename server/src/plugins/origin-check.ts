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
function checkActingGet(request: FastifyRequest, publicOrigin: string): void {
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
  if (request.headers.referer !== undefined && referer !== publicOrigin)
    throw new DomainError('forbidden', ACTING_GET_REFUSED);
}

/**
 * Every state-changing request must come from our own pages: its Origin (or, failing that, its
 * Referer) must be PUBLIC_URL's origin (docs/product.md §11). This is the CSRF defence on top of
 * SameSite=Lax cookies; a request with a personal API token and no cookie needs none. GETs change nothing, except the few the contract marks as acting, which
 * checkActingGet holds to our own pages and top-level navigations.
 */
export function registerOriginCheck(app: FastifyInstance, publicOrigin: string): void {
  app.addHook('onRequest', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD') {
      if (request.routeOptions.config.acts === true) checkActingGet(request, publicOrigin);
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
    if (source !== publicOrigin) {
      throw new DomainError(
        'forbidden',
        'Cross-site request refused: the Origin header does not match this site',
      );
    }
  });
}
