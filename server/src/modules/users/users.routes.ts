import { usersApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { sendCachedJson } from '../../plugins/cached-json.js';
import { route } from '../../plugins/route.js';
import { getUserInfoAnswer } from './users.service.js';

export function registerUserRoutes(app: FastifyInstance, ctx: AppContext): void {
  // A visitor gets null, not 401: the web asks before it knows whether anyone is logged in.
  route(app, usersApi.userInfo, 'public', async (request, reply) =>
    request.user
      ? sendCachedJson(request, reply, await getUserInfoAnswer(ctx, request.user), 'private')
      : null,
  );
}
