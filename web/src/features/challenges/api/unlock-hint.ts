import { challengesApi } from '@ctf/contract';
import { callApi } from '../../../lib/api';

export type UnlockOutcome = { ok: true; content: string } | { ok: false; message: string };

/** POST /api/ctf/unlock-hint: the hint's content, or the server's refusal. */
export async function unlockHint(hintId: string): Promise<UnlockOutcome> {
  try {
    const r = await callApi(challengesApi.unlockHint, { hint_id: hintId });
    if (r.ok) return { ok: true, content: r.data.content };
    return { ok: false, message: r.message || 'The hint could not be unlocked.' };
  } catch {
    return { ok: false, message: 'The hint could not be unlocked (network error).' };
  }
}

/** The confirmation shown before unlocking: it states the cost. */
export function confirmUnlockText(title: string, cost: number): string {
  return cost === 0
    ? `Unlock the hint "${title}"? It is free.`
    : `Unlock the hint "${title}"? It costs your team ${cost} point${cost === 1 ? '' : 's'}.`;
}
