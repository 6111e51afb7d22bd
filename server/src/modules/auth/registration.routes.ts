import { REGISTRATION_MESSAGES, accountsApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { DomainError } from '../../lib/errors.js';
import { route } from '../../plugins/route.js';
import { REGISTRATION_PASS_TTL_MS, registrationPassFor } from '../users/registration.js';

/** The cookie carrying the registration code's pass to the sign-in that makes a new account. */
export const REGISTRATION_COOKIE = 'ctf_registration';

/** Wrong codes an address may try per window: a shared code must not be guessed. */
const CODE_ATTEMPTS = 10;
const CODE_WINDOW_MS = 10 * 60 * 1000;

export function registerRegistrationRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, accountsApi.registrationCode, 'public', async (request, reply) => {
    // NOTE: counted before the comparison, in one atomic step: parallel guesses cannot slip past.
    const attempt = await ctx.limiter.hit(`registration-code:${request.ip}`, CODE_ATTEMPTS, CODE_WINDOW_MS);
    if (!attempt.allowed) {
      throw new DomainError(
        'rate_limited',
        `Too many attempts. Try again in ${attempt.retryAfterSeconds} seconds.`,
        attempt.retryAfterSeconds,
      );
    }
    const pass = await registrationPassFor(ctx, request.body.code);
    void reply.setCookie(REGISTRATION_COOKIE, pass, {
      path: '/api/auth',
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.config.secureCookies,
      maxAge: REGISTRATION_PASS_TTL_MS / 1000,
    });
    return { message: REGISTRATION_MESSAGES.codeAccepted };
  });
}
