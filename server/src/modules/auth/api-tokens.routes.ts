import { tokensApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { route } from '../../plugins/route.js';
import { requireUser } from '../../plugins/session.js';
import { createApiToken, listApiTokens, revokeApiToken } from './api-tokens.service.js';

/**
 * Personal API tokens: the caller's own, under /api/user/tokens. Creating and revoking are
 * session-only (contract api/token-scopes.ts): a leaked token can neither mint a successor nor
 * outlive its revocation.
 */
export function registerApiTokenRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, tokensApi.createToken, 'user', async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    return createApiToken(ctx, requireUser(request), request.body);
  });
  route(app, tokensApi.listTokens, 'user', async (request, reply) => {
    void reply.header('cache-control', 'private, no-cache');
    return listApiTokens(ctx, requireUser(request).id);
  });
  route(app, tokensApi.deleteToken, 'user', async (request) => {
    await revokeApiToken(ctx, requireUser(request), request.body.token_id);
    return { message: 'Token revoked' };
  });
}
