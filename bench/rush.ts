import http from 'node:http';
import { BROWSER_HEADERS } from './load.js';
import type { SeededEvent } from './seed.js';
import type { FakeOAuthProvider } from '../server/test/fake-oauth-provider.js';

/**
 * The start of an event: `players` people who have never signed in arrive over `spreadSec`
 * seconds (evenly, in a random order of arrival), and each, as the web does, signs in through the
 * OAuth provider (the fake one on loopback: the site's redirect, the provider's approval, the
 * site's callback), opens the challenge list (without credentials), their own record and the
 * board's first page, then submits a wrong flag and the right one of a random challenge. Every
 * request to the site is timed; an answer other than the one the step expects, a network error
 * or a time-out (10 s) is an error. Afterwards the whole board must show every acknowledged solve.
 */
export interface RushResult {
  players: number;
  signedIn: number;
  /** Requests to the site (the provider's own requests are not counted). */
  requests: number;
  errors: number;
  /** The first few errors, for the report. */
  errorSamples: string[];
  p50: number;
  p99: number;
  /** From the first arrival to the last player's last answer. */
  elapsedMs: number;
  /** The site's requests a second over elapsedMs. */
  requestsPerSec: number;
  /** Answers 'Correct Flag!'. */
  acknowledged: number;
  /** Acknowledged solves the whole board shows afterwards with the challenge's points. */
  onBoard: number;
  /** Peak resident memory of the server over the rush, MB (NaN when it cannot be read). */
  peakRssMb: number;
  /** CPU time (user + system) the server spent over the rush, per player, ms. */
  cpuMsPerPlayer: number;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const TIMEOUT_MS = 10_000;

function request(
  agent: http.Agent,
  base: URL,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, host: base.hostname, port: base.port, method, path, headers, timeout: TIMEOUT_MS },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('latin1'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timed out after ${TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** A cookie's value from an answer's Set-Cookie headers. */
function cookieOf(answer: Answer, name: RegExp): string | null {
  for (const line of answer.headers['set-cookie'] ?? []) {
    const pair = line.split(';', 1)[0]!;
    const eq = pair.indexOf('=');
    if (eq > 0 && name.test(pair.slice(0, eq)) && pair.length > eq + 1) return pair;
  }
  return null;
}

export async function rush(options: {
  /** The site as the players reach it (loopback) and its public origin. */
  url: string;
  origin: string;
  provider: FakeOAuthProvider;
  event: SeededEvent;
  players: number;
  spreadSec: number;
  /** Reads the server's resident memory now, MB. */
  rssMb: () => number;
  /** Reads the CPU time the server has used so far, ms. */
  cpuMs: () => number;
}): Promise<RushResult> {
  const { provider, event, players } = options;
  const site = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const idp = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const latencies: number[] = [];
  const errorSamples: string[] = [];
  let errors = 0;
  let signedIn = 0;
  const solved: { login: string; challengeId: number }[] = [];
  const login = (i: number) => `rusher${i}`;
  provider.profileFor = (q) => {
    const who = q.get('bench_player');
    return who === null
      ? undefined
      : { id: String(9_000_000 + Number(who)), login: login(Number(who)), email: `rusher${who}@example.org` };
  };
  const fail = (what: string) => {
    errors += 1;
    if (errorSamples.length < 5) errorSamples.push(what);
  };
  const timed = async (
    what: string,
    expect: number,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<Answer | null> => {
    const t0 = performance.now();
    try {
      const answer = await request(agent, site, method, path, headers, body);
      latencies.push(performance.now() - t0);
      if (answer.status !== expect) {
        fail(`${what}: ${answer.status} ${answer.body.slice(0, 120)}`);
        return null;
      }
      return answer;
    } catch (err) {
      latencies.push(performance.now() - t0);
      fail(`${what}: ${err instanceof Error ? err.message : String(err)}`);
      return null;
    }
  };

  async function player(i: number): Promise<void> {
    const nav = {
      'sec-fetch-site': 'same-origin',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    };
    const begin = await timed('sign-in redirect', 302, 'GET', '/api/auth/github', nav);
    const state = begin && cookieOf(begin, /ctf_oauth_state$/);
    if (!begin || !state) return void (begin && fail('sign-in redirect: no state cookie'));
    const approve = new URL(String(begin.headers.location));
    approve.searchParams.set('bench_player', String(i));
    let back: URL;
    try {
      const answer = await request(idp, approve, 'GET', approve.pathname + approve.search, {});
      back = new URL(String(answer.headers.location));
    } catch (err) {
      return fail(`provider: ${err instanceof Error ? err.message : String(err)}`);
    }
    const done = await timed('sign-in callback', 200, 'GET', back.pathname + back.search, {
      ...nav,
      cookie: state,
    });
    const session = done && cookieOf(done, /ctf_session$/);
    if (!done || !session) return void (done && fail('sign-in callback: no session cookie'));
    signedIn += 1;
    const own = { ...BROWSER_HEADERS, cookie: session };
    await Promise.all([
      timed('list', 200, 'GET', '/api/ctf/challenges', { ...BROWSER_HEADERS }),
      timed('user info', 200, 'GET', '/api/user/info', own),
      timed('board page', 200, 'GET', '/api/info/leaderboard?limit=50&offset=0', own),
    ]);
    const challengeId = event.challengeIds[Math.floor(Math.random() * event.challengeIds.length)]!;
    const post = { ...own, origin: options.origin, 'content-type': 'application/json' };
    const submit = (flag: string) =>
      timed(
        'submit',
        200,
        'POST',
        '/api/ctf/submit-flag',
        post,
        JSON.stringify({ flag, challenge_id: String(challengeId) }),
      );
    await submit(`flag{wrong_${i}}`);
    const right = await submit(event.flags.get(challengeId)!);
    if (right && JSON.parse(right.body).message === 'Correct Flag!')
      solved.push({ login: login(i), challengeId });
  }

  let peakRssMb = options.rssMb();
  const memory = setInterval(() => (peakRssMb = Math.max(peakRssMb, options.rssMb())), 250);
  const order = Array.from({ length: players }, (_, i) => i).sort(() => Math.random() - 0.5);
  const started = performance.now();
  const cpuBefore = options.cpuMs();
  const running: Promise<void>[] = [];
  for (let k = 0; k < players; k++) {
    const due = started + (k * options.spreadSec * 1000) / players;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    running.push(player(order[k]!));
  }
  await Promise.all(running);
  const elapsedMs = performance.now() - started;
  const cpuMsPerPlayer = (options.cpuMs() - cpuBefore) / players;
  clearInterval(memory);
  peakRssMb = Math.max(peakRssMb, options.rssMb());

  // Every acknowledged solve on the whole board, with the challenge's points (each player solved
  // one challenge and has no team: their row is that challenge's current value).
  const board = JSON.parse((await request(agent, site, 'GET', '/api/info/leaderboard', {})).body) as {
    name: string;
    points: number;
  }[];
  const list = JSON.parse((await request(agent, site, 'GET', '/api/ctf/challenges', {})).body) as {
    _id: string;
    points: number;
  }[];
  const points = new Map(list.map((c) => [Number(c._id), c.points]));
  const rows = new Map(board.map((r) => [r.name, r.points]));
  const onBoard = solved.filter((s) => rows.get(s.login) === points.get(s.challengeId)).length;
  agent.destroy();
  idp.destroy();
  provider.profileFor = null;
  const sorted = Float64Array.from(latencies).sort();
  const pct = (p: number) =>
    sorted.length
      ? Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10
      : NaN;
  return {
    players,
    signedIn,
    requests: latencies.length,
    errors,
    errorSamples,
    p50: pct(50),
    p99: pct(99),
    elapsedMs,
    requestsPerSec: latencies.length / (elapsedMs / 1000),
    acknowledged: solved.length,
    onBoard,
    peakRssMb,
    cpuMsPerPlayer,
  };
}
