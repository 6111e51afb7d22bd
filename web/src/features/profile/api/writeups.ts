import { challengesApi, writeupsApi } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi, fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** GET /api/user/writeups: the caller's competitor's writeups (issue 32). */
export function useProfileWriteups() {
  return useQuery({ queryKey: queryKeys.myWriteups, queryFn: () => fetchData(writeupsApi.myWriteups) });
}

/** Challenge id -> name, from the public list (empty while play is closed: ids are shown then). */
export function useChallengeNames(enabled: boolean) {
  return useQuery({
    queryKey: ['writeups', 'challenge-names'],
    enabled,
    queryFn: async () => {
      const r = await callApi(challengesApi.challengeList, undefined, { credentials: 'omit' });
      const names = new Map<string, string>();
      if (r.ok && Array.isArray(r.data)) for (const c of r.data) names.set(c._id, c.name);
      return names;
    },
  });
}
