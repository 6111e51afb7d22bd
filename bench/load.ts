import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import type { SeededEvent } from './seed.js';

export type ScenarioName = 'hello' | 'list' | 'list-304' | 'leaderboard' | 'info' | 'submit' | 'mixed';

export interface LoadResult {
  scenario: ScenarioName;
  connections: number;
  requestsPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  total: number;
  correct: number;
  /** The bare hello-world server's req/s at the same connections, measured right before (the ratio's base). */
  hello: number;
}

export type Req = { method: string; path: string; headers: Record<string, string>; body?: string };

/** What every browser sends; the answers worth compressing come back compressed, as they would to students. */
export const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br' } as const;

/** The scenarios whose answers are read (to count correct flags). */
const READS_BODIES: ReadonlySet<ScenarioName> = new Set(['submit', 'mixed']);
const CORRECT_FLAG = Buffer.from('Correct Flag!');

/**
 * autocannon's client appends every response body to a JavaScript string (its pipelined-requests
 * queue, `req.body += chunk`) whether or not anyone reads it. For a compressed answer that is
 * UTF-8 decoding of binary bytes: on the 10 kB Brotli leaderboard it was 38% of the load
 * generator's CPU, and the generator, not the server, set the pace. A browser never does that
 * work, so the benchmark does not either: bodies are counted in bytes and read raw where needed.
 */
function skipBodyText(client: { pipelinedRequests?: { addBody?: unknown } }): void {
  const queue = client.pipelinedRequests;
  if (!queue || typeof queue.addBody !== 'function') {
    throw new Error('autocannon changed: its client has no pipelinedRequests.addBody to switch off');
  }
  queue.addBody = () => {};
}

/** Builds the request a scenario sends next; random users, challenges and flags (loopback only). */
export function requestMaker(name: ScenarioName, event: SeededEvent, origin: string, etag: string) {
  const { sessions, challengeIds, flags } = event;
  const rand = (n: number) => Math.floor(Math.random() * n);
  const cookie = () => `ctf_session=${sessions[rand(sessions.length)]!.token}`;
  const list = (): Req => ({ method: 'GET', path: '/api/ctf/challenges', headers: { ...BROWSER_HEADERS } });
  const list304 = (): Req => ({
    method: 'GET',
    path: '/api/ctf/challenges',
    headers: { ...BROWSER_HEADERS, 'if-none-match': etag },
  });
  const board = (): Req => ({
    method: 'GET',
    path: '/api/info/leaderboard',
    headers: { ...BROWSER_HEADERS, cookie: cookie() },
  });
  const info = (): Req => ({
    method: 'GET',
    path: rand(2) ? '/api/user/info' : '/api/team/info',
    headers: { ...BROWSER_HEADERS, cookie: cookie() },
  });
  const submit = (): Req => {
    const id = challengeIds[rand(challengeIds.length)]!;
    const flag = rand(10) === 0 ? flags.get(id)! : `flag{wrong_${rand(1e6)}}`;
    return {
      method: 'POST',
      path: '/api/ctf/submit-flag',
      headers: { ...BROWSER_HEADERS, cookie: cookie(), origin, 'content-type': 'application/json' },
      body: JSON.stringify({ flag, challenge_id: String(id) }),
    };
  };
  switch (name) {
    case 'hello':
      return (): Req => ({ method: 'GET', path: '/', headers: {} });
    case 'list':
      return list;
    case 'list-304':
      return list304;
    case 'leaderboard':
      return board;
    case 'info':
      return info;
    case 'submit':
      return submit;
    case 'mixed':
      return (): Req => {
        const r = rand(100);
        return r < 60 ? list() : r < 85 ? board() : r < 95 ? info() : submit();
      };
  }
}

/** The challenge list's current ETag as a browser holds it (the list-304 scenario revalidates it). */
export async function currentListEtag(base: string): Promise<string> {
  const res = await fetch(`${base}/api/ctf/challenges`, { headers: BROWSER_HEADERS });
  await res.arrayBuffer();
  return res.headers.get('etag') ?? '';
}

/** Runs one scenario with autocannon's programmatic API, bounded in time, against loopback only. */
export async function runLoad(
  url: string,
  name: ScenarioName,
  make: () => Req,
  connections: number,
  durationSec: number,
): Promise<LoadResult> {
  if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(url)) throw new Error(`load only against loopback: ${url}`);
  let correct = 0;
  const result = await autocannon({
    url,
    connections,
    duration: durationSec,
    pipelining: 1,
    timeout: 10,
    requests: [{ setupRequest: (req: any) => ({ ...req, ...make() }) } as any],
    setupClient: (client: any) => {
      skipBodyText(client);
      // The flag scenarios count correct answers from the raw bytes of each response (the
      // client's documented 'body' event); a submission's answer is a few bytes of plain JSON.
      if (READS_BODIES.has(name)) {
        client.on('body', (chunk: Buffer) => {
          if (chunk.includes(CORRECT_FLAG)) correct += 1;
        });
      }
    },
  });
  return {
    scenario: name,
    connections,
    requestsPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
    correct,
    hello: NaN,
  };
}

/** Peak resident memory of a process (VmHWM), in MB. */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmHWM:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) / 1024 : NaN;
}
