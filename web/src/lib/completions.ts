import { leaderboardApi } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { fetchData } from './api';
import { queryKeys } from './query';

/**
 * GET /api/info/completions: the caller's own user and team completions (the same answer as
 * POST /api/info/get-completions, without a body to send). Only asked for by team members:
 * Compete, the challenge page and My Stats share it.
 */
export const completionsQuery = {
  queryKey: queryKeys.completions,
  queryFn: () => fetchData(leaderboardApi.ownCompletions),
};

export function useCompletions(enabled: boolean) {
  return useQuery({ ...completionsQuery, enabled });
}
