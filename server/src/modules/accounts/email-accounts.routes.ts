import { accountsApi } from '@ctf/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { DomainError } from '../../lib/errors.js';
import { route } from '../../plugins/route.js';
import { requireUser, sessionToken, setSessionCookie } from '../../plugins/session.js';
import { identitiesOf } from '../users/identities.js';
import { addEmailIdentity, removeIdentity } from './identities.service.js';
import {
  blockAddress,
  blockedAddresses,
  resendConfirmation,
  signInsOfUsers,
} from './admin-accounts.service.js';
import { createSession, endSession } from '../auth/sessions.service.js';
import { REGISTRATION_COOKIE } from '../auth/registration.routes.js';
import {
  checkLogin,
  confirmEmail,
  forgotPassword,
  register,
  resetPassword,
} from './email-accounts.service.js';
import { startMailSender, type MailSender } from './mail.service.js';

/**
 * How many tries an address (the client's) and an account (the e-mail typed, known or not: the
 * limit must not tell them apart) get per window, for sign-in and for reset mails.
 */
export const EMAIL_LIMITS = {
  loginPerAddress: 30,
  loginPerAccount: 10,
  forgotPerAddress: 10,
  forgotPerAccount: 3,
  windowMs: 15 * 60 * 1000,
} as const;

async function limit(ctx: AppContext, key: string, max: number): Promise<void> {
  const attempt = await ctx.limiter.hit(key, max, EMAIL_LIMITS.windowMs);
  if (!attempt.allowed) {
    throw new DomainError(
      'rate_limited',
      `Too many attempts. Try again in ${attempt.retryAfterSeconds} seconds.`,
      attempt.retryAfterSeconds,
    );
  }
}

export function registerEmailAccountRoutes(app: FastifyInstance, ctx: AppContext): void {
  async function startSession(request: FastifyRequest, reply: FastifyReply, userId: number) {
    // A new token at every login, and the old session (if any) ended: no session fixation.
    const previous = sessionToken(ctx, request);
    if (previous) await endSession(ctx, previous);
    const { token, expires } = await createSession(ctx, userId);
    setSessionCookie(ctx, reply, token, expires);
  }

  route(app, accountsApi.register, 'public', async (request) =>
    register(ctx, request.body, request.cookies[REGISTRATION_COOKIE]),
  );

  route(app, accountsApi.emailLogin, 'public', async (request, reply) => {
    await limit(ctx, `email-login:ip:${request.ip}`, EMAIL_LIMITS.loginPerAddress);
    await limit(ctx, `email-login:account:${request.body.email}`, EMAIL_LIMITS.loginPerAccount);
    const userId = await checkLogin(ctx, request.body.email, request.body.password);
    await startSession(request, reply, userId);
    return { message: 'Authorized' };
  });

  route(app, accountsApi.forgotPassword, 'public', async (request) => {
    await limit(ctx, `email-forgot:ip:${request.ip}`, EMAIL_LIMITS.forgotPerAddress);
    await limit(ctx, `email-forgot:account:${request.body.email}`, EMAIL_LIMITS.forgotPerAccount);
    return forgotPassword(ctx, request.body.email);
  });

  route(app, accountsApi.resetPassword, 'public', async (request) =>
    resetPassword(ctx, request.body.token, request.body.password),
  );

  route(app, accountsApi.identities, 'user', async (request) => identitiesOf(ctx, requireUser(request).id));
  route(app, accountsApi.addEmailIdentity, 'user', async (request) =>
    addEmailIdentity(ctx, requireUser(request), request.body.email, request.body.password),
  );
  route(app, accountsApi.unlinkIdentity, 'user', async (request) =>
    removeIdentity(ctx, requireUser(request), request.body.provider),
  );

  // The Users tab: ways in, a resent confirmation, blocked addresses.
  route(app, accountsApi.adminSignIns, 'admin', async () => signInsOfUsers(ctx));
  route(app, accountsApi.resendConfirmation, 'admin', async (request) =>
    resendConfirmation(ctx, request.body.user_id, requireUser(request)),
  );
  route(app, accountsApi.blockedEmails, 'admin', async () => blockedAddresses(ctx));
  route(app, accountsApi.blockEmail, 'admin', async (request) =>
    blockAddress(ctx, request.body.email, request.body.blocked, requireUser(request)),
  );

  // An e-mailed link: a GET that acts, answered to a navigation (the click in the mail).
  app.get<{ Querystring: { token?: unknown } }>(
    '/api/auth/email/confirm',
    { config: { acts: true } },
    async (request, reply) => {
      const token = typeof request.query.token === 'string' ? request.query.token : '';
      const ok = ctx.config.mail !== null && (await confirmEmail(ctx, token));
      return reply
        .header('Cache-Control', 'no-store')
        .header('Referrer-Policy', 'no-referrer')
        .redirect(`/login?confirmed=${ok ? 1 : 0}`, 302);
    },
  );

  let sender: MailSender | null = null;
  app.addHook('onReady', async () => {
    sender = await startMailSender(ctx);
  });
  app.addHook('preClose', async () => {
    await sender?.stop();
  });
}
