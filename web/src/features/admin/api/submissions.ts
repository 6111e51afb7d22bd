import { integrityApi } from '@ctf/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query';
import { fetchPage, pathWithQuery } from './paged';

/** The filters as the tab holds them; `ids` (comma-separated) is a signal's evidence. */
export type SubmissionFilterValues = Record<
  'user' | 'team' | 'challenge' | 'result' | 'q' | 'from' | 'to' | 'ids',
  string
>;

/** datetime-local gives local time without a zone; the server wants an instant. */
function toInstant(local: string): string {
  return local ? new Date(local).toISOString() : '';
}

function params(filters: SubmissionFilterValues): Record<string, string> {
  return { ...filters, from: toInstant(filters.from), to: toInstant(filters.to) };
}

/** GET /api/admin/submissions: one page of the submission log, newest first. */
export function useSubmissionsPage(filters: SubmissionFilterValues, cursor: string | null) {
  return useQuery({
    queryKey: [...queryKeys.admin('submissions'), filters, cursor],
    queryFn: () => fetchPage(integrityApi.getSubmissions, { ...params(filters), cursor }),
    placeholderData: keepPreviousData,
  });
}

/** The CSV export's URL for the same filters (a plain download link). */
export function submissionsCsvUrl(filters: SubmissionFilterValues): string {
  return pathWithQuery(integrityApi.getSubmissionsCsv, params(filters));
}
