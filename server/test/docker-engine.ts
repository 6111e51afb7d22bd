import { spawnSync } from 'node:child_process';
import http from 'node:http';

/**
 * Whether a Docker engine is reachable for the tests (temporary until the shared helper lands).
 * DOCKER_HOST (unix:///path) names it; without one, the tests that need it are skipped loudly.
 */
export interface DockerEngine {
  available: boolean;
  dockerHost: string | null;
  explainSkip(): void;
}

function ping(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ socketPath, path: '/_ping', timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
  });
}

export async function dockerEngine(options: { images?: string[] } = {}): Promise<DockerEngine> {
  const dockerHost = process.env.DOCKER_HOST ?? 'unix:///tmp/ctf-docker/docker.sock';
  let reason = '';
  let ok = dockerHost.startsWith('unix://') && (await ping(dockerHost.slice(7)));
  if (!ok) reason = `no Docker engine answers at ${dockerHost}`;
  for (const image of options.images ?? []) {
    if (!ok) break;
    const r = spawnSync('docker', ['image', 'inspect', image], {
      env: { ...process.env, DOCKER_HOST: dockerHost, DOCKER_API_VERSION: '1.41' },
    });
    if (r.status !== 0) {
      ok = false;
      reason = `image ${image} is missing`;
    }
  }
  if (!ok && process.env.REQUIRE_DOCKER === '1') throw new Error(`REQUIRE_DOCKER=1 but ${reason}`);
  return {
    available: ok,
    dockerHost: ok ? dockerHost : null,
    explainSkip: () => process.stderr.write(`\n!!! SKIPPED Docker engine tests: ${reason}\n`),
  };
}
