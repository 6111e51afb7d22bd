import { writeupsApi, type AdminWriteupQuery } from '@ctf/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi, fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** The ZIP of every writeup with index.csv: a link the browser follows (audited on the server). */
export const WRITEUPS_ZIP_URL = writeupsApi.writeupsZip.path;

/** GET /api/admin/writeups, filtered by challenge, competitor and division (issue 32). */
export function useAdminWriteups(filters: AdminWriteupQuery) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, String(value));
  const query = params.toString();
  return useQuery({
    queryKey: [...queryKeys.admin('writeups'), query],
    queryFn: () =>
      fetchData({
        ...writeupsApi.adminWriteups,
        path: `${writeupsApi.adminWriteups.path}${query ? `?${query}` : ''}`,
      }),
    placeholderData: keepPreviousData,
  });
}

/** POST /api/admin/writeups/review {writeup_id, reviewed, published}. */
export const reviewWriteup = (writeupId: string, reviewed: boolean, published: boolean) =>
  callApi(writeupsApi.reviewWriteup, { writeup_id: writeupId, reviewed, published });
