import { tokensApi, type TokenScope } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi, fetchData } from '../../../lib/api';

export const tokensQueryKey = ['user', 'tokens'] as const;

/** GET /api/user/tokens: the caller's personal API tokens (never the tokens themselves). */
export function useApiTokens() {
  return useQuery({ queryKey: tokensQueryKey, queryFn: () => fetchData(tokensApi.listTokens) });
}

/** POST /api/user/tokens: answers the new token, the only time it is shown. */
export const createApiToken = (name: string, expiresAt: string | null, scopes: TokenScope[]) =>
  callApi(tokensApi.createToken, { name, ...(expiresAt ? { expiresAt } : {}), scopes });

/** POST /api/user/tokens/delete: revokes one of the caller's tokens. */
export const revokeApiToken = (tokenId: string) => callApi(tokensApi.deleteToken, { token_id: tokenId });
