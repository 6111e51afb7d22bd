import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The bundled server (scripts/bundle-server.mjs), as `npm start` runs it. */
export const SERVER_ENTRY = path.join(root, 'server/dist/server.js');
/**
 * Node's flags in `npm start` (package.json; a test holds the two together), for a server whose
 * live data is tens of MB but which makes garbage fast (bench/RESULTS.md):
 * - a young generation of at most 8 MB per semi-space instead of V8's 16: request garbage is
 *   collected in shorter, more frequent pauses;
 * - the old generation collected again once it has grown by a quarter over what was live,
 *   instead of V8's factor of up to four, so garbage promoted by rebuilds does not pile up for
 *   minutes (a half until bench/NOTES.md item 35: 2,000 open streams peaked 19 MB higher).
 * Together they keep a busy server's memory 40-70 MB lower at the same speed.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8', '--heap-growing-percent=25'];

/**
 * The environment `npm start` and the image give the process, beside the site's settings: glibc's
 * malloc limited to two arenas. By default each thread that allocates (the SQLite checkpointer's
 * worker, libuv's pool) may get an arena of its own, kept and fragmented for the process's life: in
 * the start-of-event rush, ~12 MB of peak RSS (bench/NOTES.md, issue 40), at no measurable cost.
 */
export const SERVER_ENV = { MALLOC_ARENA_MAX: '2' } as const;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Starts the real built server (node server/dist/server.js) on a free loopback port with its own
 * DATA_DIR, exactly as `npm start` runs it, and waits until it answers.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'ctf-e2e-'));
  mkdirSync(dataDir, { recursive: true });
  const url = `http://localhost:${port}`;
  let out = '';
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], {
    env: {
      PATH: process.env.PATH ?? '',
      ...SERVER_ENV,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // Every browser page opens a live event stream, all from 127.0.0.1: no per-address limit
      // (a test of the limit passes its own value).
      EVENT_STREAMS_PER_ADDRESS: '0',
      // A window that is over, so challenges may be created at any hour of the run; a test of a
      // new site's first start passes '' for both.
      EVENT_START: '2025-10-14T21:00:00-04:00',
      EVENT_END: '2025-10-21T21:00:00-04:00',
      ...env,
    },
    // Its own folder as working directory: the server reads ./.env (config.ts), and a developer's
    // .env in the repository must not change what the tests run.
    cwd: dataDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${out}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start: ${out}`);
    }
    // Short steps: the benchmark reads its start-up time from here.
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    url,
    port,
    dataDir,
    process: child,
    output: () => out,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      if (!env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
