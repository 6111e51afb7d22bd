import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { JANITOR_TIMING } from '../src/modules/instances/janitor.js';
import type { TestApp, TestClient } from './build-test-app.js';
import { engineRequest, type DockerEngine } from './docker.js';

/** The test challenge's image (scripts/docker/flag-service): `nc HOST PORT` prints $FLAG. */
export const FLAG_SERVICE_IMAGE = 'ctf-flag-service:test';
/** The instances' entry point (INSTANCE_ENTRY_IMAGE's default; scripts/docker/build-base-image.sh). */
export const ENTRY_IMAGE = 'ctf-instance-entry:1';

/** Environment for a test app that starts instances on the test engine, apart from other apps. */
export function instanceEnv(dockerHost: string, ports = '31000-31999'): Record<string, string> {
  return {
    DOCKER_HOST: dockerHost,
    INSTANCE_PORT_RANGE: ports,
    // Each app its own label: one app's janitor never takes another's containers for orphans.
    INSTANCE_SITE: `test-${randomBytes(6).toString('hex')}`,
    // Every start cold (its own network and entry point) unless a test asks for warm ones: a
    // janitor sweep would otherwise leave warm entry points on the shared engine after each test.
    INSTANCE_WARM_ENTRIES: '0',
  };
}

export const instanceDefinition = (extra: Record<string, unknown> = {}) => ({
  image: FLAG_SERVICE_IMAGE,
  ports: [{ port: 1337, protocol: 'tcp' as const }],
  memoryMb: 64,
  cpus: 0.25,
  pids: 32,
  lifetimeMinutes: 30,
  env: {},
  ...extra,
});

/** Reads what a TCP service sends until it closes (bounded: 64 KB, 5 s). */
export function readService(host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer from ${host}:${port}`));
    }, 5000);
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      text += d;
      if (text.length > 65536) socket.destroy();
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** Polls the player's instance until it is running (the port answered); answers its state. */
export async function untilRunning(client: TestClient, challengeId: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get(`/api/ctf/instance?challenge_id=${challengeId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (res.body.status === 'running')
      return res.body as {
        status: string;
        host: string;
        ports: { port: number; protocol: string; url?: string }[];
        expiresAt: string;
      };
    if (Date.now() > deadline) throw new Error(`instance of challenge ${challengeId} still starting`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until a condition holds (polling), failing after `timeoutMs`. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The challenge host setting the addresses name (the published ports are on this machine). */
export async function setChallengeHost(admin: TestClient, host = '127.0.0.1'): Promise<void> {
  const res = await admin.post('/api/admin/settings', { challengeHost: host });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

export type { TestApp };

/** Fails (not skips) when the engine lacks an image the tests need: the set-up builds it. */
export async function requireImage(engine: DockerEngine, image: string): Promise<void> {
  try {
    await engineRequest(engine.host, `/images/${encodeURIComponent(image)}/json`);
  } catch {
    throw new Error(
      `The Docker engine at ${engine.host} has no image ${image}: run scripts/docker/build-base-image.sh`,
    );
  }
}

/**
 * For a file whose tests sweep by themselves: the apps' own janitors sweep only at their start (a
 * sweep of their own in between would take a test's orphan, or its warm entry points, before the
 * test looks at them).
 */
export function sweepOnlyWhenTestsSay(): void {
  const interval = JANITOR_TIMING.intervalMs;
  beforeAll(() => {
    JANITOR_TIMING.intervalMs = 3_600_000;
  });
  afterAll(() => {
    JANITOR_TIMING.intervalMs = interval;
  });
}
