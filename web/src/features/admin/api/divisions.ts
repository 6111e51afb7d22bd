import { divisionsApi, type DivisionInput } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi, fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** GET /api/admin/divisions: every division with its e-mail domains, in order. */
export function useAdminDivisions() {
  return useQuery({
    queryKey: queryKeys.admin('divisions'),
    queryFn: () => fetchData(divisionsApi.getDivisions),
  });
}

/** POST /api/admin/divisions: replaces the whole set. */
export const saveDivisions = (divisions: DivisionInput[]) =>
  callApi(divisionsApi.setDivisions, { divisions });

/** The domains field as typed (commas, spaces or new lines between them) as a list. */
export function parseDomains(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((d) => d.trim())
    .filter((d) => d !== '');
}
