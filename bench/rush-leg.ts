import { spawnSync } from 'node:child_process';
import { chownSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startServer } from '../e2e/support/server.js';
import { dockerEngine, engineRequest, type DockerEngine } from '../server/test/docker.js';
import { FakeOAuthProvider } from '../server/test/fake-oauth-provider.js';
import { prepare } from './harness.js';
import { currentRssMb, peakRssMb } from './load.js';
import type { BenchOptions } from './results.js';
import { rush, type RushResult } from './rush.js';

/** Where the rush ran: the project's image under the limits, or the built server here. */
export interface RushRun extends RushResult {
  where: string;
  spreadSec: number;
  startupMs: number;
}

/** The image the rush builds from this tree when none is named (labelled, so it is known as ours). */
const RUSH_IMAGE = process.env.BENCH_RUSH_IMAGE ?? 'ctf-platform:bench-rush';
const BASE_IMAGE = 'ctf-node24:local';
const LIMITS = ['--cpus', '1', '--memory', '1g'];
const root = fileURLToPath(new URL('..', import.meta.url));

/** The engine and the image to run, or why not (then the built server runs on this machine). */
async function imageToRun(log: (l: string) => void): Promise<{ engine: DockerEngine } | string> {
  const engine = await dockerEngine('bench: rush leg');
  if (!engine) return 'no Docker engine answers';
  const env = { ...process.env, ...engine.env, DOCKER_API_VERSION: engine.apiVersion };
  const has = async (image: string) =>
    engineRequest(engine.host, `/images/${encodeURIComponent(image)}/json`).then(
      () => true,
      () => false,
    );
  if (!process.env.BENCH_RUSH_IMAGE) {
    if (!(await has(BASE_IMAGE)))
      return `the engine has no ${BASE_IMAGE} (scripts/docker/build-base-image.sh)`;
    log(`  rush: building ${RUSH_IMAGE} from this tree (the project's Dockerfile, BASE=${BASE_IMAGE})`);
    const built = spawnSync(
      'docker',
      [
        'build',
        '-q',
        '--build-arg',
        `BASE=${BASE_IMAGE}`,
        '--label',
        'ctf-bench=rush',
        '-t',
        RUSH_IMAGE,
        root,
      ],
      { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    if (built.status !== 0) return `docker build failed: ${(built.stderr || built.stdout).slice(-400)}`;
  } else if (!(await has(RUSH_IMAGE))) return `the engine has no ${RUSH_IMAGE}`;
  return { engine };
}

/** The CPU time (user + system) a process has used, ms, from /proc (clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function waitHealthy(url: string, deadlineMs: number): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadlineMs) throw new Error(`the site at ${url} did not answer within the deadline`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The rush leg: the base event seeded on SQLite, the site started with the fake OAuth provider as
 * its GitHub (the image keeps the trial sign-in off), the event open from a few minutes ago, then
 * `players` (10,000) arriving over `spreadSec` seconds (50). In the image under
 * `--cpus 1 --memory 1g` (`--network host`: loopback both ways, the provider included, the
 * database in a mounted folder) when an engine answers; otherwise the built server on this machine.
 */
export async function benchRush(
  opts: BenchOptions,
  { players, spreadSec, where: wanted }: NonNullable<BenchOptions['rush']>,
): Promise<RushRun> {
  const log = opts.log ?? (() => {});
  const prepared = await prepare('sqlite', opts.size);
  const provider = await new FakeOAuthProvider().start();
  let port = await freePort();
  let origin = `http://127.0.0.1:${port}`;
  const now = Date.now();
  const env: Record<string, string> = {
    ...prepared.env,
    ...provider.env(),
    LOG_LEVEL: 'warn',
    // e.g. '--cpu-prof --cpu-prof-dir=/tmp/x' to profile the server of a rush run here.
    ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
    EVENT_START: new Date(now - 10 * 60_000).toISOString(),
    EVENT_END: new Date(now + 24 * 3600_000).toISOString(),
  };
  const image = wanted === 'machine' ? 'asked to run here' : await imageToRun(log);
  let stop = async () => {};
  try {
    const t0 = Date.now();
    let where: string;
    let rssMb: () => number;
    let peak: () => number;
    let pid: number;
    if (typeof image === 'string') {
      log(`  rush: the built server on this machine (${image})`);
      const server = await startServer(env);
      stop = () => server.stop();
      port = server.port;
      origin = server.url;
      pid = server.process.pid!;
      rssMb = () => currentRssMb(pid);
      peak = () => peakRssMb(pid);
      where = `the built server on this machine (${image})`;
    } else {
      const dockerEnv = { ...process.env, ...image.engine.env, DOCKER_API_VERSION: image.engine.apiVersion };
      const name = `ctf-bench-rush-${process.pid}`;
      // The image's user (10001) owns the mounted data folder, as docs/deploy.md prepares a volume.
      const dataDir = prepared.env.DATA_DIR!;
      for (const f of ['', ...readdirSync(dataDir)]) chownSync(path.join(dataDir, f), 10001, 10001);
      const args = [
        'run',
        '-d',
        '--rm',
        '--name',
        name,
        '--label',
        'ctf-bench=rush',
        ...LIMITS,
        '--network',
        'host',
      ];
      args.push('-v', `${dataDir}:/data`);
      const served = { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: origin, DATA_DIR: '/data' };
      for (const [k, v] of Object.entries({ ...env, ...served })) args.push('-e', `${k}=${v}`);
      const run = spawnSync('docker', [...args, RUSH_IMAGE], { env: dockerEnv, encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`docker run failed: ${run.stderr}`);
      stop = async () => {
        spawnSync('docker', ['stop', '-t', '10', name], { env: dockerEnv });
      };
      const inspect = spawnSync('docker', ['inspect', '-f', '{{.State.Pid}}', name], {
        env: dockerEnv,
        encoding: 'utf8',
      });
      pid = Number(inspect.stdout.trim());
      rssMb = () => currentRssMb(pid);
      peak = () => peakRssMb(pid);
      where = `${RUSH_IMAGE} under docker run ${LIMITS.join(' ')} --network host`;
    }
    const url = `http://127.0.0.1:${port}`;
    await waitHealthy(url, Date.now() + 60_000);
    const startupMs = Date.now() - t0;
    log(`  rush: ${players} players over ${spreadSec} s against ${where} (ready in ${startupMs} ms)`);
    const result = await rush({
      url,
      origin,
      provider,
      event: prepared.event,
      players,
      spreadSec,
      rssMb,
      cpuMs: () => cpuMsOf(pid),
    });
    result.peakRssMb = Math.max(result.peakRssMb, peak());
    log(
      `  rush: ${result.signedIn}/${players} signed in, ${result.requests} requests in ${(result.elapsedMs / 1000).toFixed(1)} s (${Math.round(result.requestsPerSec)} req/s), p50 ${result.p50} ms p99 ${result.p99} ms, errors ${result.errors}; ${result.onBoard}/${result.acknowledged} acknowledged solves on the board; peak RSS ${result.peakRssMb.toFixed(1)} MB; server CPU ${result.cpuMsPerPlayer.toFixed(2)} ms a player`,
    );
    for (const e of result.errorSamples) log(`    error: ${e}`);
    return { ...result, where, spreadSec, startupMs };
  } finally {
    await stop();
    await provider.stop();
    await prepared.cleanup();
  }
}

/** The rush's targets: 10,000 players in the 1-CPU, 1-GB image, p99 < 100 ms, no error. */
export const RUSH_TARGETS = { players: 10_000, p99Ms: 100 } as const;

export function rushSection(r: RushRun): string[] {
  const f = (n: number) => Math.round(n).toLocaleString('en-US');
  return [
    '',
    '## Start-of-event rush: players signing in and playing at once',
    '',
    `${f(r.players)} players who had never signed in arrive evenly over ${r.spreadSec} s, on the seeded event`,
    `(SQLite), against ${r.where}. Each signs in through the OAuth provider (a fake one on loopback),`,
    "opens the challenge list, their own record and the board's first page at once, then submits a",
    "wrong flag and the right one. Every request to the site is timed (the provider's are not).",
    '',
    '| players | signed in | requests | req/s | p50 ms | p99 ms | errors | acknowledged solves | on the board | peak RSS MB | server CPU ms a player | seconds |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    `| ${f(r.players)} | ${f(r.signedIn)} | ${f(r.requests)} | ${f(r.requestsPerSec)} | ${r.p50} | ${r.p99} | ${r.errors} | ${f(r.acknowledged)} | ${f(r.onBoard)} | ${r.peakRssMb.toFixed(1)} | ${r.cpuMsPerPlayer.toFixed(2)} | ${(r.elapsedMs / 1000).toFixed(1)} |`,
    ...r.errorSamples.map((e) => `- error: ${e}`),
  ];
}

export function rushChecks(r: RushRun): [string, number, boolean][] {
  const inImage = r.where.includes('--cpus 1');
  return [
    [
      `rush of ${r.players} players${inImage ? ' in the 1-CPU, 1-GB image' : ' (not in the image)'}: p99 < ${RUSH_TARGETS.p99Ms} ms`,
      r.p99,
      r.p99 < RUSH_TARGETS.p99Ms && inImage && r.players >= RUSH_TARGETS.players,
    ],
    ['rush: no error', r.errors, r.errors === 0 && r.signedIn === r.players],
    ['rush: every acknowledged solve on the board', r.onBoard, r.onBoard === r.acknowledged],
  ];
}
