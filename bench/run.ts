import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { connectDatabase } from '../server/src/db/connect.js';
import { FLUSH_INTERVAL_MS } from '../server/src/modules/submission-log/submission-log.service.js';
import { freePort, startServer, type RunningServer } from '../e2e/support/server.js';
import { createPostgresDatabase } from '../e2e/support/services.js';
import { measureBoardCost, type BoardCost } from './board-cost.js';
import {
  SUBMITTING,
  currentListEtag,
  currentRssMb,
  measurePaired,
  peakRssMb,
  requestMaker,
  type LoadResult,
  type LoadTarget,
  type Req,
  type ScenarioName,
} from './load.js';
import { boardSize, measureRefreshTransfer, type RefreshTransfer } from './pages.js';
import { seedEvent, type EventSize, type Scoring, type SeededEvent } from './seed.js';
import { StreamsClient, type StreamsAnswer } from './streams.js';

export interface BenchOptions {
  databases: ('sqlite' | 'postgres')[];
  size: EventSize;
  /** The doubled event for the cost-growth check; skipped when null. */
  doubleSize: EventSize | null;
  durationSec: number;
  connections: number[];
  /** The scenarios to run on each database (every one for the recorded results). */
  scenarios: ScenarioName[];
  /** Also run the mixed profile with WORKERS=2. */
  workers: boolean;
  /** Live event streams held open in the stream leg (issue 15, SQLite); 0 skips the leg. */
  streams: number;
  /** Also run the dynamic leg: half the challenges dynamic (issue 16, SQLite). */
  dynamic: boolean;
  /** Measure what a correct flag costs the scoreboard on every seeded event (board-cost.ts). */
  boardCost: boolean;
  log?: (line: string) => void;
}

/** The submission log's rows after a database's scenarios, by result (issue 18). */
export type LoggedAttempts = Record<string, number>;

/** The stream leg (issue 15): one process with many open live event streams. */
export interface StreamsRun {
  requested: number;
  opened: Extract<StreamsAnswer, { type: 'opened' }>;
  /** The server's RSS (MB) before the streams opened, and with them open and idle. */
  rssBeforeMb: number;
  rssOpenMb: number;
  /** The process's first announcement, before the streams open (its first admin write). */
  firstAnnouncement: Extract<StreamsAnswer, { type: 'announced' }>;
  /** Each announcement with the streams open: POST to the last stream receiving it. */
  announcements: Extract<StreamsAnswer, { type: 'announced' }>[];
  /** The mixed profile on the same process, without the streams and then with them open. */
  mixedWithout: LoadResult;
  mixedWith: LoadResult;
  /** Streams still open after the load (none may be dropped). */
  openAfter: number;
  closedByServer: number;
  /** The server's peak RSS over the leg (VmHWM of its process). */
  peakRssMb: number;
}

/** The dynamic leg (issue 16): the base event with half the challenges dynamic. */
export interface DynamicRun {
  results: LoadResult[];
  boardCost: BoardCost | null;
}

export interface DatabaseRun {
  database: 'sqlite' | 'postgres';
  startupMs: number;
  peakRssMb: number;
  results: LoadResult[];
  solvesRecorded: number;
  correctAnswers: number;
  workers2Mixed: LoadResult | null;
  double: LoadResult[];
  /** One leaderboard page's refresh, measured with the leaderboard-page scenario. */
  refresh: RefreshTransfer | null;
  /** 'Incorrect Flag!' answers acknowledged in the flag scenarios. */
  wrongAnswers: number;
  /** The submission log after the scenarios (null when it was not counted). */
  logged: LoggedAttempts | null;
  /** What a correct flag costs the scoreboard on this event, and on the doubled one (SQLite). */
  boardCost: BoardCost | null;
  doubleBoardCost: BoardCost | null;
  streams: StreamsRun | null;
}

export interface BenchReport {
  date: string;
  machine: string;
  hello: LoadResult[];
  runs: DatabaseRun[];
  dynamic: DynamicRun | null;
  options: BenchOptions;
}

const SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';
export const SCENARIOS: ScenarioName[] = [
  'list',
  'list-304',
  'leaderboard',
  'leaderboard-page',
  'graph',
  'info',
  'submit',
  'wrong-flag',
  'regex-submit',
  'mixed',
];

/** Scenarios measured at the highest connections only, where their targets are (fewer points). */
const AT_MOST_CONNECTIONS_ONLY: ReadonlySet<ScenarioName> = new Set(['graph', 'regex-submit']);

/**
 * The bare Fastify server every figure is compared with, in the same run: each scenario is
 * measured in slices interleaved with slices of this one (load.ts, measurePaired), so a machine
 * whose speed drifts during the run (shared or throttled CPUs) moves both figures of a ratio
 * together.
 */
interface Baseline {
  target: LoadTarget;
  stop(): void;
}

async function startHello(): Promise<Baseline> {
  const port = await freePort();
  const child = spawn(process.execPath, [fileURLToPath(new URL('./hello-world.mjs', import.meta.url))], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', () => reject(new Error('hello-world server exited')));
  });
  const none: SeededEvent = {
    sessions: [],
    flags: new Map(),
    challengeIds: [],
    regexChallenges: [],
    dynamicChallengeIds: [],
    adminToken: '',
  };
  return {
    target: { url: `http://127.0.0.1:${port}`, name: 'hello', make: requestMaker('hello', none, '', '') },
    stop: () => child.kill('SIGKILL'),
  };
}

/** One scenario, interleaved with the baseline. */
async function measure(
  baseline: Baseline,
  url: string,
  name: ScenarioName,
  make: () => Req,
  connections: number,
  opts: BenchOptions,
  hello: LoadResult[],
): Promise<LoadResult> {
  const { result, hello: base } = await measurePaired(
    baseline.target,
    { url, name, make },
    connections,
    opts.durationSec,
  );
  hello.push(base);
  return result;
}

/**
 * Seeds a fresh database of the given kind in-process, through the product's data layer; with
 * boardCost, then measures what a correct flag costs its scoreboard (a few dozen solves added).
 */
async function prepare(
  database: 'sqlite' | 'postgres',
  size: EventSize,
  options: { scoring?: Scoring; boardCost?: boolean } = {},
) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ctf-bench-'));
  const env: Record<string, string> = { DATA_DIR: dataDir, SESSION_SECRET: SECRET, LOG_LEVEL: 'silent' };
  let drop = async () => {};
  if (database === 'postgres') {
    const db = await createPostgresDatabase();
    env.DATABASE_URL = db.url;
    drop = db.drop;
  }
  const { app, ctx } = await buildApp(loadConfig(env), { logger: false });
  let event: SeededEvent;
  let boardCost: BoardCost | null = null;
  try {
    event = await seedEvent(ctx, size, { scoring: options.scoring });
    if (options.boardCost) boardCost = await measureBoardCost(ctx, event);
  } finally {
    await app.close();
  }
  return {
    env,
    event,
    boardCost,
    cleanup: async () => {
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function countSolves(server: RunningServer, event: SeededEvent): Promise<number> {
  // Through the API (an admin view would need an admin session): sum of solve counts in the list.
  void event;
  const res = await fetch(`${server.url}/api/ctf/challenges`);
  const list = (await res.json()) as { user_completions: number }[];
  return list.reduce((n, c) => n + c.user_completions, 0);
}

/** The submission log's rows by result, read from the database beside its running server. */
async function countLogged(env: Record<string, string>): Promise<LoggedAttempts> {
  const database = await connectDatabase(loadConfig(env).database);
  try {
    const rows = await database.db
      .selectFrom('submissions')
      .select(['result', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('result')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.result, Number(r.n)]));
  } finally {
    await database.close();
  }
}

/**
 * The submission log once the load has stopped and the server has written what it held: wrong
 * attempts are written in batches at most FLUSH_INTERVAL_MS later, so the count is read until it
 * covers every acknowledged wrong attempt and no longer moves (bounded: 15 s).
 */
async function settledLog(env: Record<string, string>, acknowledged: number): Promise<LoggedAttempts> {
  const deadline = Date.now() + 15_000;
  let last = await countLogged(env);
  for (;;) {
    await new Promise((r) => setTimeout(r, FLUSH_INTERVAL_MS + 250));
    const now = await countLogged(env);
    const wrong = now.wrong ?? 0;
    if ((wrong >= acknowledged && wrong === (last.wrong ?? 0)) || Date.now() > deadline) return now;
    last = now;
  }
}

/** Stops a server; says so when it had to be killed (it did not close within stop()'s 5 s). */
async function stopServer(server: RunningServer, opts: BenchOptions): Promise<void> {
  await server.stop();
  if (server.process.signalCode === 'SIGKILL') {
    opts.log?.(`  warning: the server on port ${server.port} did not close within 5 s and was killed`);
  }
}

function logLine(opts: BenchOptions, prefix: string, r: LoadResult): void {
  opts.log?.(
    `  ${prefix}${r.scenario} @${r.connections}: ${Math.round(r.requestsPerSec)} req/s (hello ${Math.round(r.hello)}, ratio ${(r.requestsPerSec / r.hello).toFixed(2)}) p50 ${r.p50} ms p99 ${r.p99} ms`,
  );
}

async function loadAll(
  baseline: Baseline,
  server: RunningServer,
  event: SeededEvent,
  scenarios: ScenarioName[],
  opts: BenchOptions,
  hello: LoadResult[],
): Promise<LoadResult[]> {
  const etag = await currentListEtag(server.url);
  const competitors = await boardSize(server.url);
  const out: LoadResult[] = [];
  const maxC = Math.max(...opts.connections);
  for (const name of scenarios) {
    for (const c of opts.connections) {
      if (AT_MOST_CONNECTIONS_ONLY.has(name) && c !== maxC) continue;
      const make = requestMaker(name, event, server.url, etag, competitors);
      const r = await measure(baseline, `http://127.0.0.1:${server.port}`, name, make, c, opts, hello);
      logLine(opts, '', r);
      out.push(r);
    }
  }
  return out;
}

async function benchDatabase(
  baseline: Baseline,
  database: 'sqlite' | 'postgres',
  opts: BenchOptions,
  hello: LoadResult[],
): Promise<DatabaseRun> {
  opts.log?.(`${database}: seeding ${opts.size.users} users, ${opts.size.solves} solves`);
  const prepared = await prepare(database, opts.size, { boardCost: opts.boardCost });
  if (prepared.boardCost) logBoardCost(opts, database, prepared.boardCost);
  try {
    const t0 = Date.now();
    const server = await startServer({ ...prepared.env, LOG_LEVEL: 'warn' });
    const startupMs = Date.now() - t0;
    const before = await countSolves(server, prepared.event);
    const refresh = opts.scenarios.includes('leaderboard-page')
      ? await measureRefreshTransfer(server.url, `ctf_session=${prepared.event.sessions[0]!.token}`)
      : null;
    if (refresh) {
      opts.log?.(
        `  leaderboard page refresh at ${refresh.competitors} competitors: ${refresh.bodyBytes + refresh.headerBytes} bytes in ${refresh.requests} requests (whole board ${refresh.wholeBoardBytes})`,
      );
    }
    const results = await loadAll(baseline, server, prepared.event, opts.scenarios, opts, hello);
    const after = await countSolves(server, prepared.event);
    const correctAnswers = results
      .filter((r) => SUBMITTING.includes(r.scenario))
      .reduce((n, r) => n + r.correct, 0);
    const wrongAnswers = results.reduce((n, r) => n + r.wrong, 0);
    // Every attempt goes to the submission log (issue 18: the flag scenarios run with it on).
    const logged = results.some((r) => r.wrong > 0) ? await settledLog(prepared.env, wrongAnswers) : null;
    const rss = peakRssMb(server.process.pid!);
    await stopServer(server, opts);
    if (logged) {
      opts.log?.(
        `  submission log: ${logged.wrong ?? 0} wrong attempts logged, ${wrongAnswers} acknowledged`,
      );
    }

    let workers2Mixed: LoadResult | null = null;
    if (opts.workers) {
      const w = await startServer({ ...prepared.env, LOG_LEVEL: 'warn', WORKERS: '2' });
      const c = Math.max(...opts.connections);
      const etag = await currentListEtag(w.url);
      const make = requestMaker('mixed', prepared.event, w.url, etag);
      workers2Mixed = await measure(baseline, `http://127.0.0.1:${w.port}`, 'mixed', make, c, opts, hello);
      opts.log?.(
        `  mixed @${c} WORKERS=2: ${Math.round(workers2Mixed.requestsPerSec)} req/s (hello ${Math.round(workers2Mixed.hello)})`,
      );
      await w.stop();
    }
    const streams =
      database === 'sqlite' && opts.streams > 0
        ? await benchStreams(baseline, prepared.env, prepared.event, opts, hello)
        : null;
    return {
      database,
      startupMs,
      peakRssMb: rss,
      results,
      solvesRecorded: after - before,
      correctAnswers,
      workers2Mixed,
      double: [],
      refresh,
      wrongAnswers,
      logged,
      boardCost: prepared.boardCost,
      doubleBoardCost: null,
      streams,
    };
  } finally {
    await prepared.cleanup();
  }
}

function logBoardCost(opts: BenchOptions, what: string, b: BoardCost): void {
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');
  opts.log?.(
    `  ${what} board cost at ${b.solves} solves: rebuild ${f(b.rebuildMs)} ms; a correct flag ${f(b.flagMs)} ms, board update ${f(b.updateMs)} ms, answer ${f(b.answerMs)} ms; apply static ${f(b.applyStaticMs)} ms, dynamic ${f(b.applyDynamicMs)} ms`,
  );
}

/**
 * Issue 15: one server process with `opts.streams` open live event streams (from a client process
 * of their own, loopback, no per-address limit). An admin's announcement must reach every stream
 * within 1 s, the process's peak RSS stay under 250 MB, and the mixed profile with the streams open
 * stay within 10% of its figure without them (each paired with hello-world as usual).
 */
async function benchStreams(
  baseline: Baseline,
  env: Record<string, string>,
  event: SeededEvent,
  opts: BenchOptions,
  hello: LoadResult[],
): Promise<StreamsRun> {
  const server = await startServer({ ...env, LOG_LEVEL: 'warn', EVENT_STREAMS_PER_ADDRESS: '0' });
  const client = await StreamsClient.start();
  try {
    const pid = server.process.pid!;
    const loopback = `http://127.0.0.1:${server.port}`;
    const c = Math.max(...opts.connections);
    const mixed = () => requestMaker('mixed', event, server.url, '');
    const mixedWithout = await measure(baseline, loopback, 'mixed', mixed(), c, opts, hello);
    logLine(opts, 'streams leg, no stream open: ', mixedWithout);
    const cookie = `ctf_session=${event.adminToken}`;
    const firstAnnouncement = await client.announce(
      loopback,
      server.url,
      cookie,
      'Benchmark announcement 0',
      30_000,
    );
    opts.log?.(
      `  first announcement of the process (no stream open): POST ${firstAnnouncement.status} in ${firstAnnouncement.postMs.toFixed(1)} ms`,
    );
    const rssBeforeMb = currentRssMb(pid);
    const opened = await client.open(loopback, opts.streams, 120_000);
    const rssOpenMb = currentRssMb(pid);
    opts.log?.(
      `  ${opened.open} of ${opts.streams} streams open in ${Math.round(opened.ms)} ms (${JSON.stringify(opened.statuses)}); server RSS ${rssBeforeMb.toFixed(1)} -> ${rssOpenMb.toFixed(1)} MB`,
    );
    const announcements: StreamsRun['announcements'] = [];
    for (let i = 0; i < 3; i++) {
      const title = `Benchmark announcement ${i + 1} ${Math.random().toString(36).slice(2, 10)}`;
      const a = await client.announce(loopback, server.url, cookie, title, 10_000);
      opts.log?.(
        `  announcement ${i + 1}: POST ${a.status} in ${a.postMs.toFixed(1)} ms; ${a.received} of ${a.expected} streams had it after ${a.ms.toFixed(1)} ms`,
      );
      announcements.push(a);
    }
    const mixedWith = await measure(baseline, loopback, 'mixed', mixed(), c, opts, hello);
    logLine(opts, `streams leg, ${opened.open} streams open: `, mixedWith);
    const after = await client.stats();
    const peak = peakRssMb(pid);
    opts.log?.(`  ${after.open} streams still open after the load; server peak RSS ${peak.toFixed(1)} MB`);
    return {
      requested: opts.streams,
      opened,
      rssBeforeMb,
      rssOpenMb,
      firstAnnouncement,
      announcements,
      mixedWithout,
      mixedWith,
      openAfter: after.open,
      closedByServer: after.closedByServer,
      peakRssMb: peak,
    };
  } finally {
    await client.close();
    await stopServer(server, opts);
  }
}

/** Issue 16: the base event with half the challenges dynamic: the list, the board and the graph. */
async function benchDynamic(
  baseline: Baseline,
  opts: BenchOptions,
  hello: LoadResult[],
): Promise<DynamicRun | null> {
  if (!opts.dynamic) return null;
  opts.log?.(`sqlite: seeding the event with half the challenges dynamic`);
  const prepared = await prepare('sqlite', opts.size, { scoring: 'half', boardCost: opts.boardCost });
  if (prepared.boardCost) logBoardCost(opts, 'dynamic', prepared.boardCost);
  try {
    const server = await startServer({ ...prepared.env, LOG_LEVEL: 'warn' });
    const c = Math.max(...opts.connections);
    const results: LoadResult[] = [];
    try {
      for (const name of ['list', 'leaderboard', 'graph'] as const) {
        const make = requestMaker(name, prepared.event, server.url, '');
        const r = await measure(baseline, `http://127.0.0.1:${server.port}`, name, make, c, opts, hello);
        logLine(opts, 'dynamic ', r);
        results.push(r);
      }
    } finally {
      await stopServer(server, opts);
    }
    return { results, boardCost: prepared.boardCost };
  } finally {
    await prepared.cleanup();
  }
}

async function benchDouble(
  baseline: Baseline,
  opts: BenchOptions,
  hello: LoadResult[],
): Promise<{ results: LoadResult[]; boardCost: BoardCost | null }> {
  if (!opts.doubleSize) return { results: [], boardCost: null };
  opts.log?.(
    `sqlite: seeding the doubled event (${opts.doubleSize.users} users, ${opts.doubleSize.solves} solves)`,
  );
  const prepared = await prepare('sqlite', opts.doubleSize, { boardCost: opts.boardCost });
  if (prepared.boardCost) logBoardCost(opts, 'doubled', prepared.boardCost);
  try {
    const server = await startServer({ ...prepared.env, LOG_LEVEL: 'warn' });
    const c = Math.max(...opts.connections);
    const out: LoadResult[] = [];
    for (const name of ['list', 'leaderboard'] as const) {
      const make = requestMaker(name, prepared.event, server.url, '');
      const r = await measure(baseline, `http://127.0.0.1:${server.port}`, name, make, c, opts, hello);
      opts.log?.(
        `  double ${name} @${c}: ${Math.round(r.requestsPerSec)} req/s (hello ${Math.round(r.hello)})`,
      );
      out.push(r);
    }
    await server.stop();
    return { results: out, boardCost: prepared.boardCost };
  } finally {
    await prepared.cleanup();
  }
}

/** The whole benchmark: hello-world baseline, every scenario on each database, scale and growth. */
export async function runBench(opts: BenchOptions): Promise<BenchReport> {
  const baseline = await startHello();
  const hello: LoadResult[] = [];
  const runs: DatabaseRun[] = [];
  let double: Awaited<ReturnType<typeof benchDouble>> = { results: [], boardCost: null };
  let dynamic: DynamicRun | null = null;
  try {
    for (const d of opts.databases) runs.push(await benchDatabase(baseline, d, opts, hello));
    double = await benchDouble(baseline, opts, hello);
    dynamic = await benchDynamic(baseline, opts, hello);
  } finally {
    baseline.stop();
  }
  const sqliteRun = runs.find((r) => r.database === 'sqlite');
  if (sqliteRun) {
    sqliteRun.double = double.results;
    sqliteRun.doubleBoardCost = double.boardCost;
  }
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`,
    hello,
    runs,
    dynamic,
    options: opts,
  };
}
