import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { freePort, startServer, type RunningServer } from '../e2e/support/server.js';
import { createPostgresDatabase } from '../e2e/support/services.js';
import {
  currentListEtag,
  measurePaired,
  peakRssMb,
  requestMaker,
  type LoadResult,
  type LoadTarget,
  type Req,
  type ScenarioName,
} from './load.js';
import { boardSize, measureRefreshTransfer, type RefreshTransfer } from './pages.js';
import { seedEvent, type EventSize, type SeededEvent } from './seed.js';

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
  log?: (line: string) => void;
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
}

export interface BenchReport {
  date: string;
  machine: string;
  hello: LoadResult[];
  runs: DatabaseRun[];
  options: BenchOptions;
}

const SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';
export const SCENARIOS: ScenarioName[] = [
  'list',
  'list-304',
  'leaderboard',
  'leaderboard-page',
  'info',
  'submit',
  'wrong-flag',
  'mixed',
];

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
  const none = { sessions: [], flags: new Map(), challengeIds: [] };
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

/** Seeds a fresh database of the given kind in-process, through the product's data layer. */
async function prepare(database: 'sqlite' | 'postgres', size: EventSize) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ctf-bench-'));
  const env: Record<string, string> = { DATA_DIR: dataDir, SESSION_SECRET: SECRET, LOG_LEVEL: 'silent' };
  let drop = async () => {};
  if (database === 'postgres') {
    const db = await createPostgresDatabase();
    env.DATABASE_URL = db.url;
    drop = db.drop;
  }
  const { app, ctx } = await buildApp(loadConfig(env), { logger: false });
  const event = await seedEvent(ctx, size);
  await app.close();
  return {
    env,
    event,
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
  for (const name of scenarios) {
    for (const c of opts.connections) {
      const make = requestMaker(name, event, server.url, etag, competitors);
      const r = await measure(baseline, `http://127.0.0.1:${server.port}`, name, make, c, opts, hello);
      opts.log?.(
        `  ${name} @${c}: ${Math.round(r.requestsPerSec)} req/s (hello ${Math.round(r.hello)}) p50 ${r.p50} ms p99 ${r.p99} ms`,
      );
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
  const prepared = await prepare(database, opts.size);
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
    const rss = peakRssMb(server.process.pid!);
    await server.stop();
    const correctAnswers = results
      .filter((r) => r.scenario === 'submit' || r.scenario === 'mixed')
      .reduce((n, r) => n + r.correct, 0);

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
    };
  } finally {
    await prepared.cleanup();
  }
}

async function benchDouble(
  baseline: Baseline,
  opts: BenchOptions,
  hello: LoadResult[],
): Promise<LoadResult[]> {
  if (!opts.doubleSize) return [];
  opts.log?.(
    `sqlite: seeding the doubled event (${opts.doubleSize.users} users, ${opts.doubleSize.solves} solves)`,
  );
  const prepared = await prepare('sqlite', opts.doubleSize);
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
    return out;
  } finally {
    await prepared.cleanup();
  }
}

/** The whole benchmark: hello-world baseline, every scenario on each database, scale and growth. */
export async function runBench(opts: BenchOptions): Promise<BenchReport> {
  const baseline = await startHello();
  const hello: LoadResult[] = [];
  const runs: DatabaseRun[] = [];
  let double: LoadResult[] = [];
  try {
    for (const d of opts.databases) runs.push(await benchDatabase(baseline, d, opts, hello));
    double = await benchDouble(baseline, opts, hello);
  } finally {
    baseline.stop();
  }
  const sqliteRun = runs.find((r) => r.database === 'sqlite');
  if (sqliteRun) sqliteRun.double = double;
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`,
    hello,
    runs,
    options: opts,
  };
}
