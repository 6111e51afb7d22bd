import { UI_TEXT, challengesApi } from '@ctf/contract';
import { callApi } from '../../../lib/api';

export interface RatingOutcome {
  ok: boolean;
  text: string;
}

async function postRating(challengeId: string, rating: number | string) {
  try {
    return await callApi(challengesApi.rateChallenge, { challenge_id: challengeId, rating });
  } catch {
    return null;
  }
}

/**
 * The challenge page's rating (an integer 1..5). The server's message is shown; a failure with
 * no message, or no answer, reads 'Error submitting rating'.
 */
export async function rateFromChallengePage(challengeId: string, rating: number): Promise<RatingOutcome> {
  const r = await postRating(challengeId, rating);
  if (!r) return { ok: false, text: UI_TEXT.errorRatingChallenge };
  const text = r.ok ? r.data?.message : r.message;
  return { ok: r.ok && !!text, text: text || UI_TEXT.errorRatingChallenge };
}

/**
 * The rate-challenge page sends the select's value as it is; any failure reads 'Error Rating
 * Challenge!' (docs/product.md §5: the server's own checks are not shown there).
 */
export async function rateFromRatingPage(challengeId: string, value: string): Promise<RatingOutcome> {
  const r = await postRating(challengeId, value);
  if (!r || !r.ok || !r.data?.message) return { ok: false, text: UI_TEXT.errorRatingPage };
  return { ok: true, text: r.data.message };
}
