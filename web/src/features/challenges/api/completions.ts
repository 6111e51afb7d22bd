import { leaderboardApi } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/**
 * POST /api/info/get-completions: the caller's own user and team completions (the server answers
 * its own records whatever the body holds). Only asked for by team members.
 */
export const completionsQuery = {
  queryKey: queryKeys.completions,
  queryFn: () => fetchData(leaderboardApi.getCompletions, { userCompletions: [], teamCompletions: [] }),
};

export function useCompletions(enabled: boolean) {
  return useQuery({ ...completionsQuery, enabled });
}
