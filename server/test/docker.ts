import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';

/**
 * Finds a Docker engine for the tests that need a real one (the compose file, per-team instances).
 *
 * Where it looks: DOCKER_HOST (unix:///path, or tcp://host:port with TLS when DOCKER_TLS_VERIFY is
 * set, certificates from DOCKER_CERT_PATH), else the socket scripts/docker/start-engine.sh makes
 * (CTF_DOCKER_DIR, default /tmp/ctf-docker), else /var/run/docker.sock. It asks the engine's
 * /_ping: a socket file nobody answers on counts as no engine.
 *
 * No engine: dockerEngine() answers null after one loud line, and the caller skips its tests (as
 * the browser tests do without Chromium); with REQUIRE_DOCKER=1 (set by .ci/run) it throws instead,
 * so a CI machine that lost its engine fails rather than passing with nothing tested.
 *
 *   const engine = await dockerEngine('compose file tests');
 *   describe.skipIf(!engine)('...', () => { ... spawn('docker', [...], { env: { ...process.env, ...engine!.env } }) });
 */
export interface DockerEngine {
  /** The engine's address as DOCKER_HOST spells it (unix:///... or tcp://...). */
  host: string;
  /** What a `docker` / `docker-compose` child process needs to reach this engine. */
  env: Record<string, string>;
  /** The engine's version (e.g. 20.10.24+dfsg1) and the API version it speaks. */
  version: string;
  apiVersion: string;
}

const PING_TIMEOUT_MS = 5_000;

function candidateHosts(): string[] {
  if (process.env.DOCKER_HOST) return [process.env.DOCKER_HOST];
  const scriptDir = process.env.CTF_DOCKER_DIR || '/tmp/ctf-docker';
  return [`unix://${path.join(scriptDir, 'docker.sock')}`, 'unix:///var/run/docker.sock'];
}

/** GET path on the engine at host; resolves with the body, rejects on any failure or non-2xx. */
export function engineRequest(
  host: string,
  requestPath: string,
  timeoutMs = PING_TIMEOUT_MS,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let options: https.RequestOptions;
    let transport: typeof http | typeof https = http;
    if (host.startsWith('unix://')) {
      options = { socketPath: host.slice('unix://'.length), path: requestPath };
    } else if (host.startsWith('tcp://')) {
      const u = new URL(host.replace(/^tcp:/, 'http:'));
      options = { host: u.hostname, port: Number(u.port || 2375), path: requestPath };
      if (process.env.DOCKER_TLS_VERIFY) {
        const certs = process.env.DOCKER_CERT_PATH || path.join(process.env.HOME ?? '', '.docker');
        transport = https;
        options = {
          ...options,
          port: Number(u.port || 2376),
          ca: readFileSync(path.join(certs, 'ca.pem')),
          cert: readFileSync(path.join(certs, 'cert.pem')),
          key: readFileSync(path.join(certs, 'key.pem')),
        };
      }
    } else {
      reject(new Error(`unsupported DOCKER_HOST ${host}`));
      return;
    }
    const req = transport.get({ ...options, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () =>
        res.statusCode && res.statusCode < 300
          ? resolve(body)
          : reject(new Error(`${res.statusCode} ${body}`)),
      );
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}

let found: Promise<DockerEngine | null> | null = null;

async function probe(): Promise<{ engine: DockerEngine | null; tried: string[] }> {
  const tried: string[] = [];
  for (const host of candidateHosts()) {
    try {
      const v = JSON.parse(await engineRequest(host, '/version')) as { Version: string; ApiVersion: string };
      const env: Record<string, string> = { DOCKER_HOST: host };
      for (const name of ['DOCKER_TLS_VERIFY', 'DOCKER_CERT_PATH', 'DOCKER_API_VERSION']) {
        if (process.env[name]) env[name] = process.env[name]!;
      }
      return { engine: { host, env, version: v.Version, apiVersion: v.ApiVersion }, tried };
    } catch (err) {
      tried.push(`${host} (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  return { engine: null, tried };
}

/**
 * The reachable engine, or null (after one loud line naming `what` is skipped). Throws when
 * REQUIRE_DOCKER=1 and no engine answers.
 */
export async function dockerEngine(what: string): Promise<DockerEngine | null> {
  found ??= probe().then(({ engine, tried }) => {
    if (engine) return engine;
    const where = tried.join('; ');
    if (process.env.REQUIRE_DOCKER === '1') {
      throw new Error(`REQUIRE_DOCKER=1 but no Docker engine answers: ${where}`);
    }
    return null;
  });
  const engine = await found;
  if (!engine) {
    console.warn(
      `\n!!! DOCKER TESTS SKIPPED (${what}): no Docker engine answers at DOCKER_HOST, /tmp/ctf-docker/docker.sock or /var/run/docker.sock (start one: eval "$(scripts/docker/start-engine.sh)") !!!\n`,
    );
  }
  return engine;
}
