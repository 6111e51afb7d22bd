import { MESSAGES, UI_TEXT, challengesApi } from '@ctf/contract';
import { callApi } from '../../../lib/api';

export interface FlagOutcome {
  variant: 'info' | 'danger';
  text: string;
  solved: boolean;
}

/**
 * POST /api/ctf/submit-flag and docs/product.md §8's reading of the answer: 'Correct Flag!' in an info
 * alert, any other message in a danger alert, an empty answer 'Incorrect Flag!', and no answer at
 * all 'Error Submitting Flag.'.
 */
export async function submitFlag(challengeId: string, flag: string): Promise<FlagOutcome> {
  let text: string | undefined;
  try {
    const r = await callApi(challengesApi.submitFlag, { flag, challenge_id: challengeId });
    text = r.ok ? r.data?.message : r.message;
  } catch {
    return { variant: 'danger', text: UI_TEXT.errorSubmittingFlag, solved: false };
  }
  if (!text) return { variant: 'danger', text: MESSAGES.incorrectFlag, solved: false };
  if (text === MESSAGES.correctFlag) return { variant: 'info', text, solved: true };
  // After the end in practice mode: right, but recorded apart and never scored.
  if (text === MESSAGES.correctPracticeFlag) return { variant: 'info', text, solved: false };
  return { variant: 'danger', text, solved: false };
}
