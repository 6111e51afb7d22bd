import { IDENTITY_MESSAGES, MESSAGES, POPUP_PROVIDERS, authApi, type OAuthMessage } from '@ctf/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isLoopback } from '../../config.js';
import type { AppContext } from '../../context.js';
import { DomainError } from '../../lib/errors.js';
import { route } from '../../plugins/route.js';
import {
  clearSessionCookie,
  requireStaff,
  requireUser,
  sessionToken,
  setSessionCookie,
} from '../../plugins/session.js';
import { findOrCreateUser } from '../users/users.service.js';
import { POPUP_SCRIPT, callbackPage } from './callback-page.js';
import { LoginError, OAUTH_STATE_TTL_MS, beginLogin, completeLogin } from './oauth.service.js';
import { beginOidcLogin, completeOidcLogin } from './oidc.service.js';
import { REGISTRATION_COOKIE, registerRegistrationRoutes } from './registration.routes.js';
import { createSession, endSession } from './sessions.service.js';

const STATE_COOKIE = 'ctf_oauth_state';

export const LOCAL_SIGN_IN_OFF = 'Local sign-in is only available on a local trial without OAuth providers.';
export const LOCAL_SIGN_IN_REMOTE = 'Local sign-in is only available from the machine the site runs on.';

/** Headers a proxy adds: a request that passed through one may come from anywhere. */
const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

/**
 * Why this request may not use the local trial sign-in, or null. Besides the configuration
 * (config.ts: no OAuth, loopback PUBLIC_URL and HOST, not production), the connection itself must
 * be loopback at both ends (the client's address, and the address it reached: a server made to
 * listen on every interface refuses a neighbour who connects to its network address), and carry
 * no proxy header (a proxy on this machine would make every visitor look local). The addresses
 * are the socket's, never X-Forwarded-For. An injected request (tests) has no local address.
 */
function localSignInRefusal(enabled: boolean, request: FastifyRequest): string | null {
  if (!enabled) return LOCAL_SIGN_IN_OFF;
  const socket = request.raw.socket;
  const local = socket.localAddress;
  const remote = socket.remoteAddress ?? '';
  const loopback = (address: string) => isLoopback(address.replace(/^::ffff:/, ''));
  if (!loopback(remote) || (local !== undefined && !loopback(local))) return LOCAL_SIGN_IN_REMOTE;
  if (PROXY_HEADERS.some((h) => request.headers[h] !== undefined)) return LOCAL_SIGN_IN_REMOTE;
  return null;
}

function sendCallbackPage(reply: FastifyReply, message: OAuthMessage): FastifyReply {
  return reply
    .header('Referrer-Policy', 'no-referrer')
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(callbackPage(message));
}

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const stateCookie = {
    path: '/api/auth',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: ctx.config.secureCookies,
  };

  route(app, authApi.authenticated, 'public', async (request) => {
    requireUser(request);
    return { message: MESSAGES.authorized };
  });

  // Any staff role may open the admin panel (it shows each role its own tabs).
  route(app, authApi.adminAuthenticated, 'public', async (request) => {
    requireStaff(request, authApi.adminAuthenticated);
    return { message: MESSAGES.authorized };
  });

  route(app, authApi.logout, 'public', async (request, reply) => {
    const token = sessionToken(ctx, request);
    if (token) await endSession(ctx, token);
    clearSessionCookie(ctx, reply);
    return { message: 'Logged out' };
  });

  route(app, authApi.localLogin, 'public', async (request, reply) => {
    const refusal = localSignInRefusal(ctx.config.localLogin, request);
    if (refusal) throw new DomainError('forbidden', refusal);
    const user = await findOrCreateUser(
      ctx,
      {
        provider: 'local',
        providerUserId: request.body.username.toLowerCase(),
        handle: request.body.username,
        avatarUrl: '',
        email: '',
      },
      { grantAdmin: request.body.admin },
    );
    await startSession(request.cookies, reply, user.id);
    return { message: MESSAGES.authorized };
  });

  async function startSession(
    cookies: Record<string, string | undefined>,
    reply: FastifyReply,
    userId: number,
  ) {
    // A new token at every login, and the old session (if any) ended: no session fixation.
    const previous = cookies[ctx.config.secureCookies ? '__Host-ctf_session' : 'ctf_session'];
    if (previous) await endSession(ctx, previous);
    const { token, expires } = await createSession(ctx, userId);
    setSessionCookie(ctx, reply, token, expires);
  }

  registerRegistrationRoutes(app, ctx);

  app.get('/api/auth/popup.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'no-cache').send(POPUP_SCRIPT),
  );

  for (const provider of POPUP_PROVIDERS) {
    // It stores a login state: a GET that acts, answered only to a navigation (the login popup).
    app.get<{ Querystring: { link?: unknown } }>(
      `/api/auth/${provider}`,
      { config: { acts: true } },
      async (request, reply) => {
        try {
          // ?link=1 while signed in: the provider's identity is linked to this account at the callback.
          let linkUserId: number | null = null;
          if (request.query.link === '1') {
            if (!request.user) throw new LoginError(IDENTITY_MESSAGES.signInFirst);
            linkUserId = request.user.id;
          }
          const { url, state } =
            provider === 'oidc'
              ? await beginOidcLogin(ctx, linkUserId)
              : await beginLogin(ctx, provider, linkUserId);
          void reply.setCookie(STATE_COOKIE, state, { ...stateCookie, maxAge: OAUTH_STATE_TTL_MS / 1000 });
          return reply.header('Cache-Control', 'no-store').redirect(url, 302);
        } catch (err) {
          if (err instanceof LoginError)
            return sendCallbackPage(reply, { type: 'OAUTH_ERROR', message: err.message });
          throw err;
        }
      },
    );

    app.get<{ Querystring: Record<string, string | string[] | undefined> }>(
      `/api/auth/${provider}/callback`,
      async (request, reply) => {
        const q = request.query;
        const one = (v: string | string[] | undefined) =>
          typeof v === 'string' && v.length <= 2048 ? v : undefined;
        void reply.clearCookie(STATE_COOKIE, stateCookie);
        try {
          const input = {
            code: one(q.code),
            state: one(q.state),
            error: one(q.error),
            cookieState: request.cookies[STATE_COOKIE],
            registrationPass: request.cookies[REGISTRATION_COOKIE],
            sessionUser: request.user,
          };
          const outcome =
            provider === 'oidc'
              ? await completeOidcLogin(ctx, { ...input, iss: one(q.iss) })
              : await completeLogin(ctx, provider, input);
          // A link keeps the session it was made in.
          if (outcome.linked)
            return sendCallbackPage(reply, { type: 'OAUTH_SUCCESS', message: IDENTITY_MESSAGES.linked });
          await startSession(request.cookies, reply, outcome.user.id);
          return sendCallbackPage(reply, { type: 'OAUTH_SUCCESS' });
        } catch (err) {
          if (err instanceof LoginError) {
            return sendCallbackPage(reply.status(400), { type: 'OAUTH_ERROR', message: err.message });
          }
          // A banned account: the popup's error names the ban and its reason.
          if (err instanceof DomainError) {
            return sendCallbackPage(reply.status(err.statusCode), {
              type: 'OAUTH_ERROR',
              message: err.message,
            });
          }
          request.log.error({ err }, 'oauth callback failed');
          return sendCallbackPage(reply.status(500), {
            type: 'OAUTH_ERROR',
            message: 'Login failed. Please try again.',
          });
        }
      },
    );
  }
}
