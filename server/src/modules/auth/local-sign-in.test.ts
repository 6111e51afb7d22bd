import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { loadConfig } from '../../config.js';
import { LOCAL_SIGN_IN_OFF, LOCAL_SIGN_IN_REMOTE } from './auth.routes.js';

/**
 * The local trial sign-in stays on its machine: offered only with no OAuth app, a loopback
 * PUBLIC_URL and a loopback HOST, never with NODE_ENV=production (the container image), and each
 * request must come over loopback with no proxy in between. A neighbour on this machine's own
 * network address is refused even when the server was made to listen on every interface, and
 * even with the Origin the site expects.
 */

/** This machine's first non-loopback IPv4 address (its network address in this namespace). */
function networkAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return undefined;
}

const config = (env: Record<string, string>) =>
  loadConfig({ DATA_DIR: path.join(tmpdir(), 'ctf-local-sign-in'), SESSION_SECRET: 'x'.repeat(40), ...env });

describe('the local trial sign-in', () => {
  let t: TestApp | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  it('is on only with a loopback PUBLIC_URL and HOST, no OAuth app, and not in production', () => {
    expect(config({}).localLogin).toBe(true);
    expect(config({ HOST: '::1' }).localLogin).toBe(true);
    expect(config({ HOST: 'localhost' }).localLogin).toBe(true);
    // The container image's defaults (HOST=0.0.0.0, NODE_ENV=production), each alone.
    expect(config({ HOST: '0.0.0.0' }).localLogin).toBe(false);
    expect(config({ HOST: '::' }).localLogin).toBe(false);
    expect(config({ HOST: '192.0.2.10' }).localLogin).toBe(false);
    expect(config({ NODE_ENV: 'production' }).localLogin).toBe(false);
    expect(config({ PUBLIC_URL: 'https://ctf.example.org' }).localLogin).toBe(false);
    expect(config({ GITHUB_CLIENT_ID: 'id', GITHUB_CLIENT_SECRET: 'secret' }).localLogin).toBe(false);
  });

  it('refuses a request from another address or through a proxy', async () => {
    t = await buildTestApp('sqlite');
    const post = (extra: { remoteAddress?: string; headers?: Record<string, string> }) =>
      t!.app.inject({
        method: 'POST',
        url: '/api/auth/local',
        headers: { origin: TEST_ORIGIN, ...extra.headers },
        payload: { username: 'trial', admin: true },
        ...(extra.remoteAddress ? { remoteAddress: extra.remoteAddress } : {}),
      });
    for (const refused of [
      await post({ remoteAddress: '192.0.2.77' }),
      await post({ remoteAddress: '::ffff:10.0.0.5' }),
      await post({ headers: { 'x-forwarded-for': '127.0.0.1' } }),
      await post({ headers: { forwarded: 'for=127.0.0.1' } }),
    ]) {
      expect(refused.statusCode).toBe(403);
      expect(JSON.parse(refused.body).message).toBe(LOCAL_SIGN_IN_REMOTE);
    }
    expect(await t.ctx.database.db.selectFrom('users').select('id').execute()).toEqual([]);
    expect((await post({ remoteAddress: '::1' })).statusCode).toBe(200);
  });

  const neighbour = networkAddress();
  it.runIf(neighbour)(
    `refuses a client on this machine's network address (${neighbour}), and lets a loopback one in`,
    async () => {
      const attempt = async (host: string, port: number) => {
        const res = await fetch(`http://${host}:${port}/api/auth/local`, {
          method: 'POST',
          headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'neighbour', admin: true }),
        });
        return { status: res.status, message: ((await res.json()) as { message: string }).message };
      };
      // The trial's own configuration, wrongly exposed on every interface.
      t = await buildTestApp('sqlite');
      await t.app.listen({ host: '0.0.0.0', port: 0 });
      let port = (t.app.server.address() as { port: number }).port;
      expect(await attempt(neighbour!, port)).toEqual({ status: 403, message: LOCAL_SIGN_IN_REMOTE });
      expect(await t.ctx.database.db.selectFrom('users').select('id').execute()).toEqual([]);
      expect((await attempt('127.0.0.1', port)).status).toBe(200);
      await t.close();

      // HOST=0.0.0.0 (the image's): no local sign-in at all, for anyone.
      t = await buildTestApp('sqlite', { HOST: '0.0.0.0' });
      await t.app.listen({ host: '0.0.0.0', port: 0 });
      port = (t.app.server.address() as { port: number }).port;
      expect(await attempt(neighbour!, port)).toEqual({ status: 403, message: LOCAL_SIGN_IN_OFF });
      expect(await attempt('127.0.0.1', port)).toEqual({ status: 403, message: LOCAL_SIGN_IN_OFF });
      expect(await t.ctx.database.db.selectFrom('users').select('id').execute()).toEqual([]);
    },
  );
});
