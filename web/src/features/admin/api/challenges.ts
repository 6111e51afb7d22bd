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
