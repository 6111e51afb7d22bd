import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { queryKeys } from '../../../lib/query';

/** After a team write: the team, the joinable list, the user (team name, leader flag) and stats. */
export function useRefreshTeam() {
  const client = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: queryKeys.teamInfo }),
      client.invalidateQueries({ queryKey: queryKeys.teamList }),
      client.invalidateQueries({ queryKey: queryKeys.userInfo }),
      client.invalidateQueries({ queryKey: queryKeys.completions }),
      client.invalidateQueries({ queryKey: queryKeys.leaderboard }),
    ]);
  }, [client]);
}
