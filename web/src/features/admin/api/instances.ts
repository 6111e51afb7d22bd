import { instancesApi } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi, fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** GET /api/admin/instances, every 5 s while the tab is open (starts and expiries happen on their own). */
export function useAdminInstances() {
  return useQuery({
    queryKey: queryKeys.admin('instances'),
    queryFn: () => fetchData(instancesApi.adminInstances),
    refetchInterval: 5000,
  });
}

/** POST /api/admin/instances/stop {instance_id}. */
export const stopInstance = (instanceId: string) =>
  callApi(instancesApi.adminStopInstance, { instance_id: instanceId });
