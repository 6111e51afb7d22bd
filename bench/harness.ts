import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { connectDatabase } from '../server/src/db/connect.js';
import { FLUSH_INTERVAL_MS } from '../server/src/modules/submission-log/submission-log.service.js';
import { freePort, type RunningServer } from '../e2e/support/server.js';
import { createPostgresDatabase } from '../e2e/support/services.js';
import { measureBoardCost, type BoardCost } from './board-cost.js';
import {
  measurePaired,
  requestMaker,
  type LoadResult,
  type LoadTarget,
  type Req,
  type ScenarioName,
} from './load.js';
import type { BenchOptions, LoggedAttempts } from './results.js';
import { seedEvent, type EventSize, type Scoring, type SeededEvent } from './seed.js';

// The run's machinery (run.ts composes it): the baseline server, one paired measurement, a seeded
// database, the counts read back after the load, stopping a server and the log lines.

const SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';

/**
 * The bare Fastify server every figure is compared with, in the same run: each scenario is
 * measured in slices interleaved with slices of this one (load.ts, measurePaired), so a machine
 * whose speed drifts during the run (shared or throttled CPUs) moves both figures of a ratio
 * together.
 */
export interface Baseline {
  target: LoadTarget;
  stop(): void;
}

export async function startHello(): Promise<Baseline> {
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
export async function measure(
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
export async function prepare(
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

export async function countSolves(server: RunningServer, event: SeededEvent): Promise<number> {
  // Through the API (an admin view would need an admin session): sum of solve counts in the list.
  void event;
  const res = await fetch(`${server.url}/api/ctf/challenges`);
  const list = (await res.json()) as { user_completions: number }[];
  return list.reduce((n, c) => n + c.user_completions, 0);
}

/** The submission log's rows by result, read from the database beside its running server. */
export async function countLogged(env: Record<string, string>): Promise<LoggedAttempts> {
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
export async function settledLog(env: Record<string, string>, acknowledged: number): Promise<LoggedAttempts> {
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
export async function stopServer(server: RunningServer, opts: BenchOptions): Promise<void> {
  await server.stop();
  if (server.process.signalCode === 'SIGKILL') {
    opts.log?.(`  warning: the server on port ${server.port} did not close within 5 s and was killed`);
  }
}

export function logLine(opts: BenchOptions, prefix: string, r: LoadResult): void {
  opts.log?.(
    `  ${prefix}${r.scenario} @${r.connections}: ${Math.round(r.requestsPerSec)} req/s (hello ${Math.round(r.hello)}, ratio ${(r.requestsPerSec / r.hello).toFixed(2)}) p50 ${r.p50} ms p99 ${r.p99} ms`,
  );
}
