import { integrityApi } from '@ctf/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query';
import { fetchPage } from './paged';

export interface AuditFilters {
  admin: string;
  action: string;
}

/** GET /api/admin/audit: one page of the audit log, newest first. */
export function useAuditPage(filters: AuditFilters, cursor: string | null) {
  return useQuery({
    queryKey: [...queryKeys.admin('audit'), filters, cursor],
    queryFn: () => fetchPage(integrityApi.getAudit, { ...filters, cursor }),
    placeholderData: keepPreviousData,
  });
}
