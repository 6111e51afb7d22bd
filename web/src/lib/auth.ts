import { authApi, usersApi } from '@ctf/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { callApi, fetchData } from './api';
import { queryKeys } from './query';

/** A failed or refused check counts as not authorized (docs/product.md §8). */
async function check(ep: typeof authApi.authenticated | typeof authApi.adminAuthenticated): Promise<boolean> {
  try {
    const r = await callApi(ep);
    return r.ok && r.data.message === 'Authorized';
  } catch {
    return false;
  }
}

/** The session check of the user-page guard (GET /api/authenticated). */
export const authenticatedQuery = {
  queryKey: queryKeys.authenticated,
  queryFn: () => check(authApi.authenticated),
  staleTime: 30_000,
};

/** The admin check of the admin panel's guard (GET /api/admin/authenticated). */
export const adminAuthenticatedQuery = {
  queryKey: queryKeys.adminAuthenticated,
  queryFn: () => check(authApi.adminAuthenticated),
  staleTime: 30_000,
};

export function useIsAuthenticated() {
  return useQuery(authenticatedQuery);
}

export function useIsAdmin() {
  return useQuery(adminAuthenticatedQuery);
}

/**
 * The logged-in user or null (GET /api/user/info). The navbar reads it: it answers visitors with
 * 200 null, so browsing as a visitor logs no failed request.
 */
export const currentUserQuery = {
  queryKey: queryKeys.userInfo,
  queryFn: () => fetchData(usersApi.userInfo),
  staleTime: 10_000,
};

export function useCurrentUser() {
  return useQuery(currentUserQuery);
}

/**
 * After logout: the session answers are known (no request needed, so no failed check is logged),
 * and everything else cached belonged to the user who left.
 */
export function useMarkSignedOut() {
  const client = useQueryClient();
  return useCallback(() => {
    client.removeQueries();
    client.setQueryData(queryKeys.authenticated, false);
    client.setQueryData(queryKeys.adminAuthenticated, false);
    client.setQueryData(queryKeys.userInfo, null);
  }, [client]);
}

/** After login every cached answer may belong to someone else: drop them all. */
export function useResetSession() {
  const client = useQueryClient();
  return useCallback(() => client.resetQueries(), [client]);
}
