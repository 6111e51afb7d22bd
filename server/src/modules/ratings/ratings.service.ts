import { isValidRating } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/connect.js';
import type { UserRow } from '../../db/schema.js';
import { DomainError } from '../../lib/errors.js';
import { isKnownChallenge } from '../challenges/challenges.service.js';
import { hasUserSolved } from '../submissions/submissions.service.js';
import { insertRating } from './ratings.repo.js';

export const RATING_THANKS = 'Thank you for rating!';

/**
 * Rates a solved challenge once, 1..5 (docs/product.md §12). Every refusal says 'Error' because the
 * challenge page colours the answer by that word (docs/product.md §8).
 */
export async function rateChallenge(
  ctx: AppContext,
  user: UserRow,
  input: { challengeId: number; rating: number },
): Promise<{ message: string }> {
  if (!isValidRating(input.rating))
    throw new DomainError('bad_input', 'Error: rating must be a whole number from 1 to 5');
  if (!(await isKnownChallenge(ctx, input.challengeId)))
    throw new DomainError('not_found', 'Error: challenge not found');
  if (!(await hasUserSolved(ctx, user.id, input.challengeId))) {
    throw new DomainError('forbidden', 'Error: you can only rate a challenge you have solved');
  }
  try {
    await insertRating(ctx.database.db, {
      user_id: user.id,
      challenge_id: input.challengeId,
      rating: input.rating,
      created_at: ctx.clock.now().toISOString(),
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw new DomainError('conflict', 'Error: you have already rated this challenge');
    throw err;
  }
  ctx.bus.publish('ratings');
  return { message: RATING_THANKS };
}
