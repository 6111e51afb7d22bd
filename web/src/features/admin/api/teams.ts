import { adminApi } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi, fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** GET /api/admin/get_teams. */
export function useAdminTeams() {
  return useQuery({ queryKey: queryKeys.admin('teams'), queryFn: () => fetchData(adminApi.getTeams) });
}

/** POST /api/admin/remove_team {team_id}. */
export const removeTeam = (teamId: string) => callApi(adminApi.removeTeam, { team_id: teamId });
