import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { engineRequest, type DockerEngine } from '../../server/test/docker.js';
import { within } from './http.js';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs a command to its end; rejects with its output when it fails or outlives timeoutMs. */
export function runCommand(
  command: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

/**
 * How to run Compose: Debian's `docker-compose` (v1.29, what CI has), else the `docker compose`
 * plugin (v2; the same arguments). Neither: null after one loud line, or a failure when
 * REQUIRE_DOCKER=1 (as dockerEngine does for a missing engine).
 */
export async function findCompose(engine: DockerEngine): Promise<string[] | null> {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...engine.env };
  for (const command of [['docker-compose'], ['docker', 'compose']]) {
    try {
      await runCommand(command[0]!, [...command.slice(1), 'version'], env, 30_000);
      return command;
    } catch {
      // not installed: try the next
    }
  }
  if (process.env.REQUIRE_DOCKER === '1')
    throw new Error('REQUIRE_DOCKER=1 but neither docker-compose nor `docker compose` runs');
  console.warn(
    '\n!!! COMPOSE TESTS SKIPPED: neither docker-compose nor `docker compose` runs (apt-get install docker-compose) !!!\n',
  );
  return null;
}

/** GET /containers/ID/json or /volumes/NAME/json from the engine, parsed. */
export async function inspect(
  engine: DockerEngine,
  what: 'containers' | 'volumes',
  id: string,
): Promise<any> {
  return JSON.parse(await engineRequest(engine.host, `/${what}/${encodeURIComponent(id)}/json`));
}

/**
 * One docker-compose project of the repository's compose files, under a random project name so it
 * never meets an organiser's own stack. docker-compose gets only PATH, HOME, the engine's variables
 * and the given settings, and an empty env file instead of the repository's .env: a developer's
 * settings must not leak in. The site's image is CTF_IMAGE=ctf-platform:test, built on
 * CTF_BASE_IMAGE, else ctf-node24:local when the engine has it, else the Dockerfile's default.
 */
export class ComposeStack {
  readonly project = `ctftest${randomBytes(4).toString('hex')}`;
  private readonly scratch = mkdtempSync(path.join(tmpdir(), 'ctf-compose-'));
  private env: Record<string, string> = {};
  /** Whether containers may exist (down -v is then due). */
  up = false;

  constructor(
    readonly engine: DockerEngine,
    private readonly command: string[],
    private readonly files: string[],
  ) {
    writeFileSync(path.join(this.scratch, 'empty.env'), '');
  }

  /** Settles the environment: call once before anything else. */
  async configure(settings: Record<string, string>): Promise<void> {
    this.env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? this.scratch,
      ...this.engine.env,
      CTF_IMAGE: 'ctf-platform:test',
      ...settings,
    };
    const base =
      process.env.CTF_BASE_IMAGE ||
      (await engineRequest(this.engine.host, '/images/ctf-node24:local/json').then(
        () => 'ctf-node24:local',
        () => null,
      ));
    if (base) this.env.CTF_BASE_IMAGE = base;
  }

  /** docker-compose ARGS on this project; `without` drops settings (to see a refusal). */
  compose(args: string[], timeoutMs = 120_000, without: string[] = []): Promise<string> {
    const env = Object.fromEntries(Object.entries(this.env).filter(([k]) => !without.includes(k)));
    const files = this.files.flatMap((f) => ['-f', f]);
    const envFile = path.join(this.scratch, 'empty.env');
    return runCommand(
      'docker-compose',
      ['--env-file', envFile, '-p', this.project, ...files, ...args],
      env,
      timeoutMs,
    );
  }

  /**
   * Builds every image (a cold build of the site, npm ci and the production build, takes minutes;
   * later ones reuse the engine's layer cache) and starts the stack.
   */
  async buildAndStart(): Promise<void> {
    await this.compose(['build'], 25 * 60_000);
    this.up = true;
    await this.compose(['up', '-d'], 5 * 60_000);
  }

  async containerId(service: string): Promise<string> {
    return (await this.compose(['ps', '-q', service])).trim();
  }

  /** Until the engine's health check of the service reports healthy. */
  async healthy(service: string): Promise<void> {
    const id = await this.containerId(service);
    const waited = await within(
      90_000,
      async () => (await inspect(this.engine, 'containers', id)).State.Health?.Status === 'healthy',
    );
    if (waited < 0)
      throw new Error(`${service} not healthy:\n${await this.compose(['logs', '--tail', '50'])}`);
  }

  /** Takes everything down, volumes included. */
  async down(): Promise<void> {
    if (this.up) await this.compose(['down', '-v', '--remove-orphans']);
    this.up = false;
  }

  /** down(), then forgets the scratch folder: the stack is not usable afterwards. */
  async destroy(): Promise<void> {
    await this.down();
    rmSync(this.scratch, { recursive: true, force: true });
  }
}
