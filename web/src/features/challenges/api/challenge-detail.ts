import { challengesApi } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** POST /api/ctf/challenge: one challenge's detail (an inactive one is refused by the server). */
export function useChallengeDetail(id: string) {
  return useQuery({
    queryKey: queryKeys.challenge(id),
    queryFn: () => fetchData(challengesApi.challengeDetail, { challenge_id: id }),
    enabled: id !== '',
  });
}
