import { vi } from 'vitest';

/** A fake server for component tests: handlers keyed 'METHOD /path' behind a stubbed fetch. */
export type Handler = (body: unknown, init: RequestInit | undefined) => Response | Promise<Response>;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Stubs fetch with the given handlers; an unknown call fails the test loudly. */
export function mockApi(routes: Record<string, Handler>) {
  const calls: { key: string; body: unknown; init: RequestInit | undefined }[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = typeof input === 'string' ? input : input instanceof URL ? input.pathname : input.url;
    const key = `${init?.method ?? 'GET'} ${path}`;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : init?.body;
    calls.push({ key, body, init });
    const handler = routes[key];
    if (!handler) throw new Error(`unexpected call ${key}`);
    return handler(body, init);
  });
  vi.stubGlobal('fetch', fn);
  return {
    calls,
    count: (key: string) => calls.filter((c) => c.key === key).length,
    bodyOf: (key: string) => calls.filter((c) => c.key === key).at(-1)?.body,
  };
}
