import { tokensApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { forbidden } from '../../lib/errors.js';
import { route } from '../../plugins/route.js';
import { personalApiToken, requireUser } from '../../plugins/session.js';
import { createApiToken, listApiTokens, revokeApiToken } from './api-tokens.service.js';

export const TOKEN_MINTS_TOKEN_REFUSED =
  'API tokens are created on the profile page, signed in: a token cannot create another.';

/** Personal API tokens (issue 31): the caller's own, under /api/user/tokens. */
export function registerApiTokenRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, tokensApi.createToken, 'user', async (request, reply) => {
    // A leaked token must not outlive its revocation by minting a successor.
    if (personalApiToken(request) !== undefined) throw forbidden(TOKEN_MINTS_TOKEN_REFUSED);
    void reply.header('cache-control', 'no-store');
    return createApiToken(ctx, requireUser(request).id, request.body);
  });
  route(app, tokensApi.listTokens, 'user', async (request, reply) => {
    void reply.header('cache-control', 'private, no-cache');
    return listApiTokens(ctx, requireUser(request).id);
  });
  route(app, tokensApi.deleteToken, 'user', async (request) => {
    await revokeApiToken(ctx, requireUser(request).id, request.body.token_id);
    return { message: 'Token revoked' };
  });
}
