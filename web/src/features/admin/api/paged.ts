import type { ClientEndpoint } from '@ctf/contract';
import { ApiError, request } from '../../../lib/api';

/**
 * The path of a filtered, paged GET: the endpoint's path with the filters that are set (empty
 * ones are left out, so the server sees no filter rather than an empty one).
 */
export function pathWithQuery(
  ep: ClientEndpoint<'GET'>,
  params: Record<string, string | null | undefined>,
): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value.trim() !== '') query.set(key, value.trim());
  }
  const text = query.toString();
  return text ? `${ep.path}?${text}` : ep.path;
}

/** GETs one page of a filtered admin list; a refusal becomes an Error with the server's message. */
export async function fetchPage<T>(
  ep: ClientEndpoint<'GET', undefined, T>,
  params: Record<string, string | null | undefined>,
): Promise<T> {
  const result = await request<T>(pathWithQuery(ep, params), { method: 'GET', credentials: 'include' });
  if (!result.ok) throw new ApiError(result.status, result.message || `Request failed (${result.status})`);
  return result.data;
}
