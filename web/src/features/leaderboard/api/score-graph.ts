import { GRAPH_TOP_DEFAULT, leaderboardApi, type ScoreGraph } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { ApiError, request } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/**
 * GET /api/info/scoreboard/graph?top=10: the best competitors' cumulative points over the event
 * (as of the freeze for everyone but admins), of the whole board or of one division ('' : all).
 * Under the leaderboard's key, so whatever refreshes the board refreshes the graph too.
 */
export function scoreGraphQuery(division = '', top = GRAPH_TOP_DEFAULT) {
  return {
    queryKey: [...queryKeys.leaderboard, 'graph', top, division] as const,
    queryFn: async (): Promise<ScoreGraph> => {
      const params = new URLSearchParams({ top: String(top) });
      if (division) params.set('division', division);
      const result = await request<ScoreGraph>(`${leaderboardApi.scoreGraph.path}?${params}`, {
        method: 'GET',
        credentials: 'include',
      });
      if (!result.ok)
        throw new ApiError(result.status, result.message || `Request failed (${result.status})`);
      return result.data;
    },
  };
}

/** `enabled: false` holds the request back (the page asks once its first view is painted). */
export function useScoreGraph(division = '', top = GRAPH_TOP_DEFAULT, enabled = true) {
  return useQuery({ ...scoreGraphQuery(division, top), refetchInterval: 60_000, enabled });
}
