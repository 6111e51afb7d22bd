import { leaderboardApi } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** GET /api/info/completions: the caller's own user and team completions. */
export function useCompletions(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.completions,
    queryFn: () => fetchData(leaderboardApi.ownCompletions),
    enabled,
  });
}
