import { adminApi, siteApi } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi, fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** POST /api/admin/scoreboard/freeze {freeze_at}: sets the freeze (ISO 8601) or lifts it (null). */
export const setFreeze = (freezeAt: string | null) =>
  callApi(adminApi.freezeScoreboard, { freeze_at: freezeAt });

/** The admin exports, as links the browser downloads (the session cookie goes with them). */
export const EXPORT_LINKS = [
  { href: adminApi.exportScoreboardCsv.path, label: 'Scoreboard (CSV)' },
  { href: adminApi.exportScoreboardJson.path, label: 'Scoreboard (JSON)' },
  { href: adminApi.exportSolvesCsv.path, label: 'Solves (CSV)' },
  { href: adminApi.exportSolvesJson.path, label: 'Solves (JSON)' },
] as const;

/** The freeze time from GET /api/info/site (the same query as the site's, so one request). */
export function useFreezeAt() {
  return useQuery({
    queryKey: queryKeys.siteInfo,
    queryFn: () => fetchData(siteApi.siteInfo),
    staleTime: 60_000,
    select: (info) => info.freezeAt,
  });
}
