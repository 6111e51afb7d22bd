import { leaderboardApi } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** GET /api/info/leaderboard: competitors by points, best first (the server orders them). */
export const leaderboardQuery = {
  queryKey: queryKeys.leaderboard,
  queryFn: () => fetchData(leaderboardApi.leaderboard),
};

export function useLeaderboard() {
  return useQuery({ ...leaderboardQuery, refetchInterval: 60_000 });
}
