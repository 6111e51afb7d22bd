import { adminApi } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi, fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** GET /api/admin/setup: what the set-up checklist shows (challenges, sign-in, webhook). */
export function useSetupStatus() {
  return useQuery({ queryKey: queryKeys.admin('setup'), queryFn: () => fetchData(adminApi.getSetup) });
}

/** POST /api/admin/sample_challenges: imports the sample challenges (a site without any only). */
export const addSampleChallenges = () => callApi(adminApi.addSampleChallenges, {});
