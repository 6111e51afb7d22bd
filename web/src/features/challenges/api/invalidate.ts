import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { queryKeys } from '../../../lib/query';

/** After a solve or a rating: everything that shows completions, ratings, solve counts or points. */
export function useRefreshAfterScore() {
  const client = useQueryClient();
  return useCallback(
    async (challengeId: string) => {
      await Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.userInfo }),
        client.invalidateQueries({ queryKey: queryKeys.challenges }),
        client.invalidateQueries({ queryKey: queryKeys.challenge(challengeId) }),
        client.invalidateQueries({ queryKey: queryKeys.leaderboard }),
        client.invalidateQueries({ queryKey: queryKeys.completions }),
        client.invalidateQueries({ queryKey: queryKeys.teamInfo }),
      ]);
    },
    [client],
  );
}
