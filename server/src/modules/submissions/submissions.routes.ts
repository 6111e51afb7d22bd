import { challengesApi, usersApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { route } from '../../plugins/route.js';
import { getPracticeSolves, submitFlag } from './submissions.service.js';

export function registerSubmissionRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, challengesApi.submitFlag, 'user', async (request) =>
    submitFlag(ctx, request.user!, {
      challengeId: request.body.challenge_id,
      flag: request.body.flag,
      // The connection's address, or X-Forwarded-For's from a TRUST_PROXY proxy only (an IP).
      address: request.clientAddress,
    }),
  );
  route(app, usersApi.practiceSolves, 'user', async (request) => getPracticeSolves(ctx, request.user!.id));
}
