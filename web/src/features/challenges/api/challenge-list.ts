import { MESSAGES, challengesApi, siteApi, type PublicChallenge } from '@ctf/contract';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { ApiError, callApi, fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** The list, or the server's message while the site is inactive (docs/product.md §2, §12). */
export type ChallengeListResult =
  { kind: 'list'; challenges: PublicChallenge[] } | { kind: 'inactive'; message: string };

/**
 * Whether the public site info says play is closed; unknown (failure) counts as open. The answer
 * is shared with the site info query (the same key), so one asked at start-up, or a moment ago
 * by another page, is reused instead of asked again in series before the list.
 */
async function siteIsInactive(client: QueryClient): Promise<boolean> {
  try {
    const info = await client.fetchQuery({
      queryKey: queryKeys.siteInfo,
      queryFn: () => fetchData(siteApi.siteInfo),
      staleTime: 5_000,
    });
    return info.activated === false;
  } catch {
    return false;
  }
}

/**
 * GET /api/ctf/challenges without credentials: the answer is the same for everyone, so browsers
 * and proxies may cache and revalidate it (docs/product.md §13). While the site is inactive the server
 * refuses the list with MESSAGES.siteInactive; the public site info says so first, so a closed
 * site costs no refused request (and no console error). If the switch flips in between, the
 * list's own refusal message is shown.
 */
export async function fetchChallengeList({ client }: { client: QueryClient }): Promise<ChallengeListResult> {
  if (await siteIsInactive(client)) return { kind: 'inactive', message: MESSAGES.siteInactive };
  const r = await callApi(challengesApi.challengeList, undefined, { credentials: 'omit' });
  if (r.ok) {
    if (Array.isArray(r.data)) return { kind: 'list', challenges: r.data };
    if (r.data && typeof r.data.message === 'string') return { kind: 'inactive', message: r.data.message };
    throw new ApiError(r.status, 'The challenge list could not be read.');
  }
  if (r.status === 403 && r.message) return { kind: 'inactive', message: r.message };
  throw new ApiError(r.status, r.message || `Request failed (${r.status})`);
}

export const challengeListQuery = { queryKey: queryKeys.challenges, queryFn: fetchChallengeList };

export function useChallengeList() {
  return useQuery(challengeListQuery);
}
