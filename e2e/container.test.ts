import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { dockerEngine, engineRequest, type DockerEngine } from '../server/test/docker.js';
import { HttpClient, within } from './support/http.js';
import { SERVER_ENTRY, SERVER_NODE_FLAGS, freePort } from './support/server.js';

/**
 * The container image (Dockerfile) and compose.yaml, as an organiser uses them: the image is built,
 * `docker-compose up` brings the site up on SQLite, an admin and a player sign in, a flag is
 * solved, the stack is taken down and brought up again on the same volume, the solve is still
 * there, and `down -v` removes everything. Needs a Docker engine (server/test/docker.ts) and
 * docker-compose; CI starts both (.ci/run). The image builds on CTF_BASE_IMAGE (CI:
 * ctf-node20:local from scripts/docker/build-base-image.sh), else the Dockerfile's default.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** Settings the image fixes (or that name the compose host's own engine): compose.yaml never passes them. */
const NOT_PASSED = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'UPLOAD_DIR',
  'DOCKER_HOST',
  'DOCKER_TLS_VERIFY',
  'DOCKER_CERT_PATH',
];

describe('container files', () => {
  it('runs the server as `npm start` does: the same entry and Node flags', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(read('Dockerfile'));
    expect(cmd).not.toBeNull();
    expect(JSON.parse(cmd![1]!)).toEqual(['node', ...SERVER_NODE_FLAGS, path.relative(root, SERVER_ENTRY)]);
  });

  it('builds on the same default base image in the Dockerfile and compose.yaml', () => {
    const arg = /^ARG BASE=(\S+)$/m.exec(read('Dockerfile'))![1];
    const compose = YAML.parse(read('compose.yaml'));
    expect(compose.services.site.build.args.BASE).toBe(`\${CTF_BASE_IMAGE:-${arg}}`);
  });

  it('passes every setting of .env.example to the site, except what the image fixes', () => {
    const documented = [...read('.env.example').matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
    const passed: string[] = YAML.parse(read('compose.yaml')).services.site.environment;
    for (const name of documented.filter((n) => !NOT_PASSED.includes(n))) {
      expect(
        passed,
        `compose.yaml does not pass ${name} to the site: add it to its environment list`,
      ).toContain(name);
    }
    for (const name of NOT_PASSED) expect(passed).not.toContain(name);
  });
});

const engine = await dockerEngine('container image and compose file');

/** Runs a command to its end; rejects with its output when it fails or outlives timeoutMs. */
function run(
  command: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? code}):\n${out.slice(-4000)}`));
    });
  });
}

async function inspect(e: DockerEngine, what: 'containers' | 'volumes', id: string): Promise<any> {
  return JSON.parse(await engineRequest(e.host, `/${what}/${encodeURIComponent(id)}/json`));
}

/** The base image: CTF_BASE_IMAGE, else the local one when the engine has it, else the Dockerfile's. */
async function baseImage(e: DockerEngine): Promise<string | null> {
  if (process.env.CTF_BASE_IMAGE) return process.env.CTF_BASE_IMAGE;
  return engineRequest(e.host, '/images/ctf-node20:local/json').then(
    () => 'ctf-node20:local',
    () => null,
  );
}

describe.skipIf(!engine)('compose.yaml on a real Docker engine', () => {
  const e = engine!;
  const project = `ctftest${randomBytes(4).toString('hex')}`;
  // An empty file instead of the repository's .env: a developer's settings must not leak in.
  const scratch = mkdtempSync(path.join(tmpdir(), 'ctf-compose-'));
  const envFile = path.join(scratch, 'empty.env');
  writeFileSync(envFile, '');
  let base = '';
  let origin = '';
  let env: Record<string, string> = {};
  let composeUp = false;
  const compose = (args: string[], timeoutMs = 120_000) =>
    run(
      'docker-compose',
      ['--env-file', envFile, '-p', project, '-f', 'compose.yaml', ...args],
      env,
      timeoutMs,
    );
  const containerId = async () => (await compose(['ps', '-q', 'site'])).trim();

  /** Until the engine's health check (the image's HEALTHCHECK on /api/health) reports healthy. */
  async function healthy(): Promise<void> {
    const id = await containerId();
    const waited = await within(
      90_000,
      async () => (await inspect(e, 'containers', id)).State.Health?.Status === 'healthy',
    );
    if (waited < 0) throw new Error(`not healthy:\n${await compose(['logs', '--tail', '50', 'site'])}`);
  }

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    origin = `http://localhost:${port}`;
    env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? scratch,
      ...e.env,
      CTF_IMAGE: 'ctf-platform:test',
      CTF_LISTEN: `127.0.0.1:${port}`,
      PUBLIC_URL: origin,
      // A past window, as the other end-to-end tests use: play is open after it (the default).
      EVENT_START: '2020-01-01T00:00:00Z',
      EVENT_END: '2020-01-08T00:00:00Z',
      LOG_LEVEL: 'warn',
    };
    const baseImg = await baseImage(e);
    if (baseImg) env.CTF_BASE_IMAGE = baseImg;
    // A cold build (npm ci with better-sqlite3 compiled from source) takes minutes; later ones reuse
    // the engine's layer cache.
    await compose(['build'], 25 * 60_000);
    await compose(['up', '-d']);
    composeUp = true;
  }, 26 * 60_000);

  afterAll(async () => {
    if (composeUp) await compose(['down', '-v', '--remove-orphans']);
    rmSync(scratch, { recursive: true, force: true });
  }, 120_000);

  it('starts healthy, as a user other than root, with its data in a named volume', async () => {
    await healthy();
    expect((await compose(['exec', '-T', 'site', 'id', '-u'])).trim()).toBe('10001');
    const container = await inspect(e, 'containers', await containerId());
    const mount = container.Mounts.find((m: { Destination: string }) => m.Destination === '/data');
    expect(mount).toMatchObject({ Type: 'volume', Name: `${project}_ctf-data` });
    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', database: true });
  });

  it('signs in, records a solve, and keeps it when the stack is taken down and brought up again', async () => {
    const admin = await new HttpClient(origin).signIn(base, 'compose-admin', true);
    const created = await admin.post(base, '/api/admin/ctf/create_challenge', {
      name: 'Container',
      category: 'General',
      difficulty: 'Easy',
      written_by: 'tester',
      flag: 'flag{in-a-container}',
    });
    expect(created.status, created.text).toBe(200);
    expect((await admin.post(base, '/api/admin/update_site_info', { activated: true })).status).toBe(200);
    const player = await new HttpClient(origin).signIn(base, 'compose-player');
    const [challenge] = (await player.get(base, '/api/ctf/challenges')).body as { _id: string }[];
    const solved = await player.post(base, '/api/ctf/submit-flag', {
      challenge_id: challenge!._id,
      flag: 'flag{in-a-container}',
    });
    expect(solved.status, solved.text).toBe(200);
    const board = async () => (await fetch(`${base}/api/info/leaderboard`)).json();
    expect(await board()).toEqual([expect.objectContaining({ name: 'compose-player', points: 100 })]);

    // A new container on the same volume: the database, sessions and solve are all still there.
    const before = await containerId();
    await compose(['down']);
    await compose(['up', '-d']);
    expect(await containerId()).not.toBe(before);
    await healthy();
    expect(await board()).toEqual([expect.objectContaining({ name: 'compose-player', points: 100 })]);
    const again = await player.post(base, '/api/ctf/submit-flag', {
      challenge_id: challenge!._id,
      flag: 'flag{in-a-container}',
    });
    // The session (kept in the database) still signs the player in, and the solve is known.
    expect(again.text).toContain('You have already solved this challenge.');
  });

  it('stops gracefully on SIGTERM: exit code 0, long before the grace period ends', async () => {
    const id = await containerId();
    const started = Date.now();
    await compose(['stop']);
    const elapsed = Date.now() - started;
    const state = (await inspect(e, 'containers', id)).State;
    expect(state.ExitCode).toBe(0);
    // compose.yaml gives it 15 s before SIGKILL (exit code 137); it closes in well under that.
    expect(elapsed).toBeLessThan(10_000);
  });

  it('takes everything down with `down -v`, the volume included', async () => {
    await compose(['down', '-v']);
    composeUp = false;
    await expect(inspect(e, 'volumes', `${project}_ctf-data`)).rejects.toThrow(/404/);
    expect((await compose(['ps', '-q'])).trim()).toBe('');
  });
});
