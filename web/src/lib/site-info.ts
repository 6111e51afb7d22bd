import { siteApi } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { fetchData } from './api';
import { queryKeys } from './query';

export const siteInfoQuery = {
  queryKey: queryKeys.siteInfo,
  queryFn: () => fetchData(siteApi.siteInfo),
  staleTime: 60_000,
};

/** Public settings: event window, links, which login methods are on. */
export function useSiteInfo() {
  return useQuery(siteInfoQuery);
}

/** The freeze time from GET /api/info/site (the same query as the site's, so one request). */
export function useFreezeAt() {
  return useQuery({ ...siteInfoQuery, select: (info) => info.freezeAt });
}
