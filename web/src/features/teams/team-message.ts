import { MESSAGES, UI_TEXT } from '@ctf/contract';
import type { ApiResult } from '../../lib/api';

export type TeamAction = 'create' | 'request' | 'update' | 'leave' | 'remove' | 'accept';

export interface TeamMessage {
  text: string;
  success: boolean;
}

/** docs/product.md §8: what an empty answer shows, per action. */
function emptyAnswerText(action: TeamAction, status: number): string {
  if (action === 'accept' || action === 'leave') return UI_TEXT.errorAddingMember;
  if (action === 'remove') return UI_TEXT.errorRemovingMember;
  return `The server gave no answer (HTTP ${status}).`;
}

/**
 * docs/product.md §8 colours: 'Request Sent Successfully!' and 'Team created Successfully!' are green, an
 * update message is green when it contains 'success', anything else is red.
 */
export function isGreen(action: TeamAction, text: string): boolean {
  if (text === MESSAGES.requestSent || text === MESSAGES.teamCreated) return true;
  return action === 'update' && text.includes('success');
}

/** The message the team page shows for a server answer (success or refusal alike). */
export function teamMessageFor(action: TeamAction, result: ApiResult<{ message?: string }>): TeamMessage {
  const text = (result.ok ? result.data?.message : result.message) || emptyAnswerText(action, result.status);
  return { text, success: isGreen(action, text) };
}
