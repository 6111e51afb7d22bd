import { adminApi, siteApi } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi, fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** GET /api/admin/get_site_info: whether the site is active. */
export function useAdminSiteInfo() {
  return useQuery({ queryKey: queryKeys.admin('site'), queryFn: () => fetchData(adminApi.getSiteInfo) });
}

/** POST /api/admin/update_site_info {activated}. */
export const updateSiteInfo = (activated: boolean) => callApi(adminApi.updateSiteInfo, { activated });

/** GET /api/admin/ctf/force_update. */
export const forceUpdate = () => callApi(adminApi.forceUpdate);

/** The event window (GET /api/info/site), which locks Create Challenge while it runs. */
export function useEventWindow() {
  return useQuery({
    queryKey: queryKeys.siteInfo,
    queryFn: () => fetchData(siteApi.siteInfo),
    staleTime: 60_000,
    select: (info) => ({ start: Date.parse(info.eventStart), end: Date.parse(info.eventEnd) }),
  });
}

/** Whether `now` is inside the event window (start inclusive, end exclusive, as the server counts). */
export function isDuringEvent(window: { start: number; end: number }, now: number): boolean {
  return now >= window.start && now < window.end;
}
