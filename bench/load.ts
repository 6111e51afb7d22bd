import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { firstViewRequest, type FirstViewScenario } from './first-view.js';
import { regexFlagAnswer, type SeededEvent } from './seed.js';

export type ScenarioName =
  | 'hello'
  | 'visitor-list'
  | 'signed-in-list'
  | 'list-304'
  | 'leaderboard'
  | 'leaderboard-page'
  | 'graph'
  | 'info'
  | 'submit'
  | 'wrong-flag'
  | 'regex-submit'
  | 'mixed'
  | FirstViewScenario;

/** The scenarios that send correct flags (each acknowledged one must be recorded once). */
export const SUBMITTING: readonly ScenarioName[] = ['submit', 'regex-submit', 'mixed'];

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
  /** Answers 'Incorrect Flag!' (each one a row of the submission log). */
  wrong: number;
  /** The bare hello-world server's req/s at the same connections, measured right before (the ratio's base). */
  hello: number;
}

export type Req = { method: string; path: string; headers: Record<string, string>; body?: string };

/** What every browser sends; the answers worth compressing come back compressed, as they would to students. */
export const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br' } as const;

/** The scenarios whose answers are read (to count correct and wrong flags). */
const READS_BODIES: ReadonlySet<ScenarioName> = new Set(['submit', 'wrong-flag', 'regex-submit', 'mixed']);
/**
 * Whether a scenario is warmed before its measured slices (`warmUp`): every one that only reads.
 * The players' kept answers are built once, as in an event under way, so the ratios are of the
 * steady state; a player's first requests are what the rush measures (bench/rush.ts). The flag
 * scenarios write and count their answers, so they are not (their sessions are, by the reads
 * before them).
 */
export function isWarmed(name: ScenarioName): boolean {
  return !READS_BODIES.has(name);
}
/**
 * How long a scenario is warmed at its highest connections: every seeded player is met in it (a
 * shorter measurement, such as the tests' tiny run, is warmed no longer than it is measured).
 */
export const WARM_SECONDS = 2;
const CORRECT_FLAG = Buffer.from('Correct Flag!');
const INCORRECT_FLAG = Buffer.from('Incorrect Flag!');

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

/**
 * Builds the request a scenario sends next; random users, challenges and flags (loopback only).
 * `competitors` (the board's size) places the leaderboard pages.
 */
export function requestMaker(
  name: ScenarioName,
  event: SeededEvent,
  origin: string,
  etag: string,
  competitors = 0,
) {
  const { sessions, challengeIds, flags, regexChallenges } = event;
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
  // An open leaderboard page: its first page (the podium) or a page of 50 further down, asked by
  // a logged-in student, so each answer also looks up the caller's rank.
  const pages = Math.max(1, Math.ceil(competitors / 50));
  const boardPage = (): Req => ({
    method: 'GET',
    path: `/api/info/leaderboard?limit=50&offset=${rand(2) ? 0 : rand(pages) * 50}`,
    headers: { ...BROWSER_HEADERS, cookie: cookie() },
  });
  // The score graph of the top 10 (issue 16), as the leaderboard page asks for it.
  const graph = (): Req => ({
    method: 'GET',
    path: '/api/info/scoreboard/graph?top=10',
    headers: { ...BROWSER_HEADERS, cookie: cookie() },
  });
  /**
   * A signed-in player's challenge page, as the web asks for it (features/challenges): the list
   * without credentials (the same bytes for everyone), their own record with its solved marks
   * (GET /api/user/info) and their team's (GET /api/info/completions); one of the three in turn,
   * so the figure is the page's requests as a whole.
   */
  const completions = (): Req => ({
    method: 'GET',
    path: '/api/info/completions',
    headers: { ...BROWSER_HEADERS, cookie: cookie() },
  });
  let signedInTurn = 0;
  const signedInList = (): Req => {
    signedInTurn = (signedInTurn + 1) % 3;
    if (signedInTurn === 0) return list();
    if (signedInTurn === 1)
      return { method: 'GET', path: '/api/user/info', headers: { ...BROWSER_HEADERS, cookie: cookie() } };
    return completions();
  };
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
  /** Only wrong flags: each one is compared and goes to the submission log (issue 18). */
  const wrongFlag = (): Req => {
    const id = challengeIds[rand(challengeIds.length)]!;
    return {
      method: 'POST',
      path: '/api/ctf/submit-flag',
      headers: { ...BROWSER_HEADERS, cookie: cookie(), origin, 'content-type': 'application/json' },
      body: JSON.stringify({ flag: `flag{wrong_${rand(1e6)}}`, challenge_id: String(id) }),
    };
  };
  /**
   * The submit scenario on the challenges with regex flags only (issue 17): every attempt runs the
   * static comparison and the three patterns; one in ten is right, and only a pattern accepts it.
   */
  const regexSubmit = (): Req => {
    const { id, index } = regexChallenges[rand(regexChallenges.length)]!;
    const flag = rand(10) === 0 ? regexFlagAnswer(index) : `flag{wrong_${rand(1e6)}}`;
    return {
      method: 'POST',
      path: '/api/ctf/submit-flag',
      headers: { ...BROWSER_HEADERS, cookie: cookie(), origin, 'content-type': 'application/json' },
      body: JSON.stringify({ flag, challenge_id: String(id) }),
    };
  };
  switch (name) {
    case 'first-view':
    case 'first-view-json':
      return firstViewRequest(name, event);
    case 'wrong-flag':
      return wrongFlag;
    case 'regex-submit':
      return regexSubmit;
    case 'graph':
      return graph;
    case 'hello':
      return (): Req => ({ method: 'GET', path: '/', headers: {} });
    case 'visitor-list':
      return list;
    case 'signed-in-list':
      return signedInList;
    case 'list-304':
      return list304;
    case 'leaderboard':
      return board;
    case 'leaderboard-page':
      return boardPage;
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

/** What to load: a server's loopback URL and the requests of one scenario. */
export interface LoadTarget {
  url: string;
  name: ScenarioName;
  make: () => Req;
}

/** One uninterrupted stretch of load on one target; a measurement adds several up. */
interface Stretch {
  requests: number;
  seconds: number;
  /** Every response's latency in ms, as autocannon timed it. */
  latencies: number[];
  errors: number;
  non2xx: number;
  correct: number;
  wrong: number;
}

/** Loads one target with autocannon's programmatic API, bounded in time, against loopback only. */
async function loadStretch(target: LoadTarget, connections: number, seconds: number): Promise<Stretch> {
  const { url, name, make } = target;
  if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(url))
    throw new Error(`load only against loopback: ${url}`);
  let correct = 0;
  let wrong = 0;
  const latencies: number[] = [];
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    pipelining: 1,
    timeout: 10,
    requests: [{ setupRequest: (req: any) => ({ ...req, ...make() }) } as any],
    setupClient: (client: any) => {
      skipBodyText(client);
      // Latencies are kept raw so that the stretches of one measurement give one exact p50/p99.
      client.on('response', (_status: number, _bytes: number, ms: number) => latencies.push(ms));
      // The flag scenarios count correct answers from the raw bytes of each response (the
      // client's documented 'body' event); a submission's answer is a few bytes of plain JSON.
      if (READS_BODIES.has(name)) {
        client.on('body', (chunk: Buffer) => {
          if (chunk.includes(CORRECT_FLAG)) correct += 1;
          else if (chunk.includes(INCORRECT_FLAG)) wrong += 1;
        });
      }
    },
  });
  return {
    requests: result.requests.total,
    seconds: result.duration,
    latencies,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    correct,
    wrong,
  };
}

/** Load that is not measured: a read scenario's warm-up (isWarmed). */
export async function warmUp(target: LoadTarget, connections: number, durationSec: number): Promise<void> {
  await loadStretch(target, connections, Math.min(WARM_SECONDS, durationSec));
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round(sorted[Math.max(0, i)]! * 10) / 10;
}

function summarise(name: ScenarioName, connections: number, stretches: Stretch[]): LoadResult {
  const sum = (f: (s: Stretch) => number) => stretches.reduce((n, s) => n + f(s), 0);
  const sorted = Float64Array.from(stretches.flatMap((s) => s.latencies)).sort();
  return {
    scenario: name,
    connections,
    requestsPerSec: sum((s) => s.requests) / sum((s) => s.seconds),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    errors: sum((s) => s.errors),
    non2xx: sum((s) => s.non2xx),
    total: sum((s) => s.requests),
    correct: sum((s) => s.correct),
    wrong: sum((s) => s.wrong),
    hello: NaN,
  };
}

/** How long one slice of a paired measurement lasts. */
export const SLICE_SECONDS = 1;

/** How many slices a measurement of durationSec seconds of each side is cut into. */
export function sliceCount(durationSec: number): number {
  return Math.max(1, Math.round(durationSec / SLICE_SECONDS));
}

/**
 * Measures a scenario against the bare baseline server, interleaved: `durationSec` seconds of
 * each, cut into slices of SLICE_SECONDS that alternate in the order B S S B B S ... . On a
 * machine whose speed swings by a factor of two from one few-second stretch to the next (a shared
 * host), two back-to-back 10 s runs can see different machines; slices a second apart see the
 * same one, and the mirrored order cancels a steady drift. The scenario's req/s, p50 and p99 are
 * over all of its slices, and its ratio is to the baseline's slices around them.
 */
export async function measurePaired(
  baseline: LoadTarget,
  target: LoadTarget,
  connections: number,
  durationSec: number,
): Promise<{ result: LoadResult; hello: LoadResult }> {
  const slices = sliceCount(durationSec);
  const seconds = durationSec / slices;
  const base: Stretch[] = [];
  const load: Stretch[] = [];
  for (let i = 0; i < slices; i++) {
    const order = i % 2 === 0 ? [baseline, target] : [target, baseline];
    for (const t of order) (t === baseline ? base : load).push(await loadStretch(t, connections, seconds));
  }
  const hello = summarise(baseline.name, connections, base);
  const result = summarise(target.name, connections, load);
  result.hello = hello.requestsPerSec;
  return { result, hello };
}

function statusMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Peak resident memory of a process (VmHWM), in MB. */
export function peakRssMb(pid: number): number {
  return statusMb(pid, 'VmHWM');
}

/** Resident memory of a process now (VmRSS), in MB. */
export function currentRssMb(pid: number): number {
  return statusMb(pid, 'VmRSS');
}
