import { challengesApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { route } from '../../plugins/route.js';
import { unlockHint } from './hints.service.js';

export function registerHintRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, challengesApi.unlockHint, 'user', async (request) =>
    unlockHint(ctx, request.user!, request.body.hint_id),
  );
}
