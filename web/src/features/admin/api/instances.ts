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

/** GET /api/admin/instances/policy: the operator's box, shown beside the challenge form's fields. */
export function useInstancePolicy() {
  return useQuery({
    queryKey: queryKeys.admin('instance-policy'),
    queryFn: () => fetchData(instancesApi.instancePolicy),
    staleTime: Infinity,
  });
}

/** GET /api/admin/instances/engine, with the list (the engine may go away or come back). */
export function useEngineStatus() {
  return useQuery({
    queryKey: queryKeys.admin('instance-engine'),
    queryFn: () => fetchData(instancesApi.instanceEngine),
    refetchInterval: 5000,
  });
}
