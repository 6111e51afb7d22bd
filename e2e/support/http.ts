/** A tiny cookie-keeping HTTP client for multi-process tests (Node's fetch, real sockets). */
export class HttpClient {
  cookie = '';
  constructor(
    /** The origin every POST claims (the site's PUBLIC_URL). */
    readonly origin: string,
  ) {}

  async call(base: string, method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(method === 'POST' ? { origin: this.origin } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...headers,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      redirect: 'manual',
    });
    const set = res.headers.getSetCookie().find((c) => /ctf_session=/.test(c));
    if (set) this.cookie = set.split(';')[0]!;
    const text = await res.text();
    let json: any = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, body: json, text, headers: res.headers };
  }

  get(base: string, path: string, headers?: Record<string, string>) {
    return this.call(base, 'GET', path, undefined, headers);
  }

  post(base: string, path: string, body: unknown) {
    return this.call(base, 'POST', path, body);
  }

  /** Local trial sign-in (servers without OAuth providers on a loopback PUBLIC_URL). */
  async signIn(base: string, username: string, admin = false) {
    const r = await this.post(base, '/api/auth/local', { username, admin });
    if (r.status !== 200) throw new Error(`sign-in failed: ${r.status} ${r.text}`);
    return this;
  }
}

/** Polls fn until it returns true or timeoutMs passes; returns how long it took, or -1. */
export async function within(timeoutMs: number, fn: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (Date.now() - start <= timeoutMs) {
    if (await fn()) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 25));
  }
  return -1;
}
