import { accountsApi } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi, fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** GET /api/admin/sign-ins: each user's ways in and e-mail confirmation. */
export function useSignIns() {
  return useQuery({
    queryKey: queryKeys.admin('sign-ins'),
    queryFn: () => fetchData(accountsApi.adminSignIns),
  });
}

/** GET /api/admin/blocked-emails (admins only). */
export function useBlockedEmails(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.admin('blocked-emails'),
    queryFn: () => fetchData(accountsApi.blockedEmails),
    enabled,
  });
}

export const resendConfirmation = (userId: string) =>
  callApi(accountsApi.resendConfirmation, { user_id: userId });
export const blockEmail = (email: string, blocked: boolean) =>
  callApi(accountsApi.blockEmail, { email, blocked });
