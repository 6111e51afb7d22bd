import type { ClientEndpoint } from '@ctf/contract';

/** A call's outcome: the response body when 2xx, else the server's message (docs/product.md §8). */
export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; message: string; code?: string };

/** What an endpoint takes and answers, as the contract's schemas type them. */
export type BodyOf<E extends ClientEndpoint> = NonNullable<E['types']>['body'];
type ResponseOf<E extends ClientEndpoint> = NonNullable<E['types']>['response'];

/** Thrown only when the network itself failed (no answer from the server). */
export class NetworkError extends Error {}

/**
 * Calls one endpoint of the contract. Session calls send credentials; a 4xx/5xx with a JSON body
 * becomes {ok: false, message}; an empty body becomes {ok: false, message: ''} so the caller can
 * show docs/product.md's "empty response" text.
 */
export async function callApi<E extends ClientEndpoint>(
  ep: E,
  ...args: BodyOf<E> extends undefined ? [body?: undefined, init?: RequestInit] : [body: BodyOf<E>, init?: RequestInit]
): Promise<ApiResult<ResponseOf<E>>> {
  const [body, init] = args;
  return request<ResponseOf<E>>(ep.path, {
    method: ep.method,
    credentials: 'include',
    ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } } : {}),
    ...init,
  });
}

export async function request<T>(path: string, init: RequestInit): Promise<ApiResult<T>> {
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new NetworkError(err instanceof Error ? err.message : 'network error');
  }
  const text = await res.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  if (res.ok) return { ok: true, status: res.status, data: parsed as T };
  const obj = (parsed ?? {}) as { message?: unknown; code?: unknown };
  return {
    ok: false,
    status: res.status,
    message: typeof obj.message === 'string' ? obj.message : '',
    ...(typeof obj.code === 'string' ? { code: obj.code } : {}),
  };
}

/** For queries: the data, or an Error carrying the server's message. */
export async function fetchData<E extends ClientEndpoint>(
  ep: E,
  ...args: BodyOf<E> extends undefined ? [body?: undefined, init?: RequestInit] : [body: BodyOf<E>, init?: RequestInit]
): Promise<ResponseOf<E>> {
  const result = await callApi(ep, ...args);
  if (!result.ok) throw new ApiError(result.status, result.message || `Request failed (${result.status})`);
  return result.data;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
