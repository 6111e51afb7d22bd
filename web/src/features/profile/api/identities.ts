import { accountsApi, type IdentityKind } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi, fetchData } from '../../../lib/api';

export const identitiesQueryKey = ['user', 'identities'] as const;

/** GET /api/user/identities: the caller's ways in. */
export function useIdentities() {
  return useQuery({ queryKey: identitiesQueryKey, queryFn: () => fetchData(accountsApi.identities) });
}

export const addEmailIdentity = (email: string, password: string) =>
  callApi(accountsApi.addEmailIdentity, { email, password });

export const unlinkIdentity = (provider: IdentityKind) => callApi(accountsApi.unlinkIdentity, { provider });
