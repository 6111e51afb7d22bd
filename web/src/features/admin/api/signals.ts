import { integrityApi } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** GET /api/admin/signals: cheating signals with their evidence rows. */
export function useSignals() {
  return useQuery({
    queryKey: queryKeys.admin('signals'),
    queryFn: () => fetchData(integrityApi.getSignals),
  });
}
