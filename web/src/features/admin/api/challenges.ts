import { adminApi } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi, fetchData, type BodyOf } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** The challenge form as sent (points are shown, never trusted: the server derives them). */
export type ChallengeForm = BodyOf<typeof adminApi.createChallenge>;

/** GET /api/admin/ctf/fetch_challenges: every challenge with its flag. */
export function useAdminChallenges() {
  return useQuery({
    queryKey: queryKeys.admin('challenges'),
    queryFn: () => fetchData(adminApi.fetchChallenges),
  });
}

/** GET /api/admin/ctf/get_solvers: challenge name -> usernames. */
export function useSolvers() {
  return useQuery({ queryKey: queryKeys.admin('solvers'), queryFn: () => fetchData(adminApi.getSolvers) });
}

export const createChallenge = (form: ChallengeForm) => callApi(adminApi.createChallenge, form);

export const updateChallenge = (challengeId: string, form: ChallengeForm) =>
  callApi(adminApi.updateChallenge, { ...form, challenge_id: challengeId });

export const toggleStatus = (challengeId: string) =>
  callApi(adminApi.toggleStatus, { challenge_id: challengeId });

export const deleteChallenge = (challengeId: string) =>
  callApi(adminApi.deleteChallenge, { challenge_id: challengeId });

/** A wave: the release time of several challenges (null: released now). */
export const scheduleRelease = (challengeIds: string[], releaseAt: string | null) =>
  callApi(adminApi.scheduleRelease, { challenge_ids: challengeIds, release_at: releaseAt });

/** A datetime-local field's value (the browser's local time) as an ISO instant, or null when empty. */
export function localInputToIso(value: string): string | null {
  if (!value) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** An ISO instant as a datetime-local field's value in the browser's local time ('' for null). */
export function isoToLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A competitor's per-team flag (team name, or a username: that user's competitor); audited. */
export const revealTeamFlag = (challengeId: string, competitor: string) =>
  callApi(adminApi.revealTeamFlag, { challenge_id: challengeId, competitor });
