import { teamsApi } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** GET /api/team/info: the caller's team, or null when they have none. */
export const teamInfoQuery = {
  queryKey: queryKeys.teamInfo,
  queryFn: () => fetchData(teamsApi.teamInfo),
};

export function useTeamInfo() {
  return useQuery(teamInfoQuery);
}
