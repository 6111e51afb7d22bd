import { challengesApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { route } from '../../plugins/route.js';
import { rateChallenge } from './ratings.service.js';

export function registerRatingRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The challenge page shows an answer in danger style when it contains 'Error' (docs/product.md §8), so
  // every refusal of this call, the guard's and the schema's included, carries the word.
  route(
    app,
    challengesApi.rateChallenge,
    'user',
    async (request) =>
      rateChallenge(ctx, request.user!, {
        challengeId: request.body.challenge_id,
        rating: request.body.rating,
      }),
    { config: { errorMessagePrefix: 'Error: ' } },
  );
}
