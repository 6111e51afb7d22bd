import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { DomainError } from '../lib/errors.js';
import {
  API_TOKEN_PREFIX,
  MESSAGES,
  TOKEN_MESSAGES,
  rolesFor,
  tokenRuleFor,
  type Route,
  type StaffRole,
  type TokenRule,
} from '@ctf/contract';
import { findTokenUser } from '../modules/auth/api-tokens.service.js';
import { findSessionUser } from '../modules/auth/sessions.service.js';
import type { UserRow } from '../db/schema.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The logged-in user, loaded once per request from the session cookie or a personal API token
     * (Authorization: Bearer ctf_...); null for visitors, and always null on 'anonymous' routes
     * (plugins/route.ts), which never look.
     */
    user: UserRow | null;
  }
}

export function sessionCookieName(ctx: AppContext): string {
  // The __Host- prefix pins the cookie to this exact origin, over https only.
  return ctx.config.secureCookies ? '__Host-ctf_session' : 'ctf_session';
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The personal API token a request bears (`Authorization: Bearer ctf_...`), or undefined. Other
 * bearer tokens (ADMIN_API_TOKEN, METRICS_TOKEN) are their own routes' business, not a user's.
 */
export function personalApiToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const token = BEARER.exec(header)?.[1];
  return token?.startsWith(API_TOKEN_PREFIX) ? token : undefined;
}

/**
 * What a token must carry to call the route this request reached: route()'s rule, or for a route
 * registered by hand the token table's by its path; undefined (no token accepted) otherwise.
 */
export function tokenRuleOf(request: FastifyRequest): TokenRule | undefined {
  const options = request.routeOptions;
  if (options.config.tokenRule) return options.config.tokenRule;
  return options.url ? tokenRuleFor({ method: request.method as 'GET', path: options.url }) : undefined;
}

/**
 * The caller: a personal API token decides alone when one is sent (a cookie beside it is not
 * read, and a token that does not work is a 401 rather than a fall-back to the cookie, so a
 * script learns at once that its token was revoked); otherwise the session cookie. A working
 * token is let through only where the token table allows it: a route no token may call answers
 * 403 'This needs a signed-in session.', a scope the token lacks 403 'This token does not allow
 * that.' A route without a rule is the first kind (fail closed).
 */
function lookUpCaller(
  ctx: AppContext,
  request: FastifyRequest,
  reply?: FastifyReply,
): UserRow | null | Promise<UserRow | null> {
  const apiToken = personalApiToken(request);
  if (apiToken !== undefined) return lookUpTokenCaller(ctx, request, apiToken, reply);
  const token = request.cookies[sessionCookieName(ctx)];
  // A kept session is answered without a promise (findSessionUser).
  return token ? findSessionUser(ctx, token) : null;
}

/** The caller by a personal API token, held to the token table's rule for this route. */
async function lookUpTokenCaller(
  ctx: AppContext,
  request: FastifyRequest,
  apiToken: string,
  reply?: FastifyReply,
): Promise<UserRow> {
  const caller = await findTokenUser(ctx, apiToken);
  if (!caller) {
    void reply?.header('www-authenticate', 'Bearer error="invalid_token"');
    throw new DomainError('unauthenticated', API_TOKEN_REFUSED);
  }
  const rule = tokenRuleOf(request);
  if (rule === undefined || rule === 'session')
    throw new DomainError('forbidden', TOKEN_MESSAGES.sessionOnly);
  if (!caller.scopes.includes(rule)) {
    void reply?.header('www-authenticate', `Bearer error="insufficient_scope", scope="${rule}"`);
    throw new DomainError('forbidden', TOKEN_MESSAGES.outsideScopes);
  }
  return caller.user;
}

export const API_TOKEN_REFUSED =
  'This API token is not valid: it was revoked, it expired, or its user may not sign in.';

export async function registerSessions(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(cookie);
  app.decorateRequest('user', null);
  // A callback hook, not an async one: a visitor and a kept session cost no promise.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.anonymous) return done();
    let caller: UserRow | null | Promise<UserRow | null>;
    try {
      caller = lookUpCaller(ctx, request, reply);
    } catch (err) {
      return done(err as Error);
    }
    if (!(caller instanceof Promise)) {
      request.user = caller;
      return done();
    }
    caller.then((user) => {
      request.user = user;
      done();
    }, done);
  });
}

/**
 * The logged-in user on a route that usually needs nobody ('anonymous'): looked up only when the
 * handler asks (the leaderboard's pages name the caller's rank; its whole answer does not).
 */
export async function sessionUser(ctx: AppContext, request: FastifyRequest): Promise<UserRow | null> {
  if (request.user) return request.user;
  request.user = await lookUpCaller(ctx, request);
  return request.user;
}

export function setSessionCookie(ctx: AppContext, reply: FastifyReply, token: string, expires: Date): void {
  void reply.setCookie(sessionCookieName(ctx), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.secureCookies,
    expires,
  });
}

export function clearSessionCookie(ctx: AppContext, reply: FastifyReply): void {
  void reply.clearCookie(sessionCookieName(ctx), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.secureCookies,
  });
}

export function sessionToken(ctx: AppContext, request: FastifyRequest): string | undefined {
  return request.cookies[sessionCookieName(ctx)];
}

/** The logged-in user, or a 401. */
export function requireUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new DomainError('unauthenticated', MESSAGES.unauthorized);
  return request.user;
}

/** A logged-in admin (role admin), or 401 / 403. */
export function requireAdmin(request: FastifyRequest): UserRow {
  const user = requireUser(request);
  if (user.role !== 'admin') throw new DomainError('forbidden', MESSAGES.forbidden);
  return user;
}

/**
 * A logged-in user whose staff role the authorisation table (contract api/staff-roles.ts) lets
 * call this route, or 401 / 403. The roles come from route() (config.roles) or, for a route
 * registered with another access, from the table by the route given.
 */
export function requireStaff(request: FastifyRequest, route?: Pick<Route, 'method' | 'path'>): UserRow {
  const user = requireUser(request);
  const roles = route ? rolesFor(route) : request.routeOptions.config.roles;
  if (!roles || !roles.includes(user.role as StaffRole))
    throw new DomainError('forbidden', MESSAGES.forbidden);
  return user;
}
