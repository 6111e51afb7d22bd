import { teamsApi } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** GET /api/team/list: teams that still have room, by name. Asked for only by teamless users. */
export function useTeamList(enabled: boolean) {
  return useQuery({ queryKey: queryKeys.teamList, queryFn: () => fetchData(teamsApi.teamList), enabled });
}
