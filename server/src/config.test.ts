import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const dirs: string[] = [];
function dataDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'ctf-config-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('boots on defaults: SQLite in DATA_DIR, localhost:3000, a generated 0600 secret, local sign-in', () => {
    const dir = dataDir();
    const c = loadConfig({ DATA_DIR: dir });
    expect(c.port).toBe(3000);
    expect(c.host).toBe('127.0.0.1');
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.database).toMatchObject({
      kind: 'sqlite',
      file: path.join(dir, 'ctf.sqlite'),
      synchronous: 'NORMAL',
    });
    expect(c.localLogin).toBe(true);
    expect(c.secureCookies).toBe(false);
    const secretFile = path.join(dir, 'session-secret');
    expect(existsSync(secretFile)).toBe(true);
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).sessionSecret).toBe(c.sessionSecret);
    // No window configured: a new database makes its own at its first start (event-state).
    expect(c.eventWindow).toBeNull();
  });

  it('takes the event window from EVENT_START and EVENT_END, both or neither', () => {
    const c = loadConfig({
      DATA_DIR: dataDir(),
      EVENT_START: '2025-10-14T21:00:00-04:00',
      EVENT_END: '2025-10-21T21:00:00-04:00',
    });
    expect(c.eventWindow?.start.toISOString()).toBe('2025-10-15T01:00:00.000Z');
    expect(c.eventWindow?.end.toISOString()).toBe('2025-10-22T01:00:00.000Z');
    expect(() => loadConfig({ DATA_DIR: dataDir(), EVENT_START: '2025-10-14T21:00:00Z' })).toThrow(
      'EVENT_START and EVENT_END must be set together',
    );
    expect(loadConfig({ DATA_DIR: dataDir(), EVENT_START: '', EVENT_END: '' }).eventWindow).toBeNull();
  });

  it('enables a provider only when both its values are set, and then turns local sign-in off', () => {
    const c = loadConfig({ DATA_DIR: dataDir(), GITHUB_CLIENT_ID: 'id', GITHUB_CLIENT_SECRET: 'secret' });
    expect(c.oauth.github?.authorizeUrl).toBe('https://github.com/login/oauth/authorize');
    expect(c.oauth.discord).toBeNull();
    expect(c.localLogin).toBe(false);
    expect(() => loadConfig({ DATA_DIR: dataDir(), DISCORD_CLIENT_ID: 'id' })).toThrow(
      /DISCORD_CLIENT_SECRET/,
    );
  });

  it('never offers local sign-in on a public origin, and uses secure cookies on https', () => {
    const c = loadConfig({ DATA_DIR: dataDir(), PUBLIC_URL: 'https://ctf.example.org/' });
    expect(c.localLogin).toBe(false);
    expect(c.secureCookies).toBe(true);
    expect(c.publicOrigin).toBe('https://ctf.example.org');
  });

  it('parses ADMINS', () => {
    const c = loadConfig({ DATA_DIR: dataDir(), ADMINS: 'discord:alice, github:Bob ,local:carol' });
    expect(c.admins).toEqual([
      { provider: 'discord', name: 'alice' },
      { provider: 'github', name: 'Bob' },
      { provider: 'local', name: 'carol' },
    ]);
  });

  it.each([
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'ftp://x' }, 'PUBLIC_URL'],
    [{ DATABASE_URL: 'mysql://x/y' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgres://' }, 'DATABASE_URL'],
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ EVENT_START: 'yesterday' }, 'EVENT_START'],
    [{ ADMINS: 'alice' }, 'ADMINS'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
    [{ SESSION_SECRET: 'short' }, 'SESSION_SECRET'],
    [{ WORKERS: '0' }, 'WORKERS'],
    [{ DATABASE_URL: 'postgres://localhost/x' }, 'SESSION_SECRET'],
  ])('refuses %o naming %s', (env, variable) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(variable);
  });
});

describe('start-up with bad configuration', () => {
  const entry = fileURLToPath(new URL('../dist/server.js', import.meta.url));
  it.runIf(existsSync(entry)).each([
    ['PUBLIC_URL', 'http//broken'],
    ['DATABASE_URL', 'postgres:/nohost'],
  ])('prints one clear line naming %s and exits non-zero', (name, value) => {
    const r = spawnSync(process.execPath, [entry], {
      env: { PATH: process.env.PATH, DATA_DIR: dataDir(), [name]: value },
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(r.status).not.toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name);
    expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });
});

describe('.env in the working directory', () => {
  const entry = fileURLToPath(new URL('../dist/server.js', import.meta.url));

  async function freePort(): Promise<number> {
    return new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
  }

  /** Starts the built server in cwd with only PATH and env; whether it answered on port, and its stderr. */
  async function startIn(cwd: string, port: number, env: Record<string, string>) {
    const child = spawn(process.execPath, [entry], {
      cwd,
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      const deadline = Date.now() + 20_000;
      let answered = false;
      while (!answered && child.exitCode === null && Date.now() < deadline) {
        answered = await fetch(`http://127.0.0.1:${port}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (!answered) await new Promise((r) => setTimeout(r, 50));
      }
      return { answered, stderr };
    } finally {
      const exited = child.exitCode === null ? new Promise((r) => child.once('exit', r)) : null;
      child.kill('SIGTERM');
      await exited;
    }
  }

  it.runIf(existsSync(entry))('is read at start-up, and the process environment wins over it', async () => {
    const cwd = dataDir();
    const port = await freePort();
    // PORT and DATA_DIR come only from the file; its PUBLIC_URL is invalid, so the server can only
    // start if the environment's PUBLIC_URL is the one used.
    writeFileSync(
      path.join(cwd, '.env'),
      `# settings\nPORT=${port}\nDATA_DIR=./from-dotenv\nPUBLIC_URL=http//not-a-url\nLOG_LEVEL="warn"\n`,
    );
    const { answered, stderr } = await startIn(cwd, port, { PUBLIC_URL: `http://localhost:${port}` });
    expect(answered, stderr).toBe(true);
    expect(existsSync(path.join(cwd, 'from-dotenv', 'ctf.sqlite'))).toBe(true);
  });

  it.runIf(existsSync(entry))('accepts .env.example copied as it is', async () => {
    const cwd = dataDir();
    const port = await freePort();
    copyFileSync(fileURLToPath(new URL('../../.env.example', import.meta.url)), path.join(cwd, '.env'));
    const { answered, stderr } = await startIn(cwd, port, { PORT: String(port), LOG_LEVEL: 'warn' });
    expect(answered, stderr).toBe(true);
  });
});
