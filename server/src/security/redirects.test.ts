import fc from 'fast-check';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { FakeOAuthProvider } from '../../test/fake-oauth-provider.js';
import { POPUP_SCRIPT } from '../modules/auth/callback-page.js';
import { WEB_ROUTES } from '../plugins/web-app.js';

/**
 * No open redirect anywhere: every 3xx the app sends goes to a configured target (TOOLS_URL,
 * COMMUNITY_URL, /admin/panel, or the provider's authorize URL with our own callback), whatever
 * the path, query or encoding of the request.
 */

const TOOLS = 'https://tools.example.org/kit';
const COMMUNITY = 'https://chat.example.org/invite/abc';
const EVIL = [
  'https://evil.example',
  '//evil.example',
  '/\\evil.example',
  '\\\\evil.example',
  'javascript:alert(1)',
  '%2F%2Fevil.example',
];

/** A GET whose path reaches the server exactly as written. */
function rawRequest(
  port: number,
  rawPath: string,
): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'GET', path: rawPath }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('redirects', () => {
  const fake = new FakeOAuthProvider();
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    await fake.start();
    t = await buildTestApp('sqlite', { ...fake.env(), TOOLS_URL: TOOLS, COMMUNITY_URL: COMMUNITY });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  /** A 3xx may point only at a configured target; anything else is an open redirect. */
  function expectAllowedLocation(url: string, status: number, location: string | undefined) {
    if (status < 300 || status >= 400) {
      expect(location, url).toBeUndefined();
      return;
    }
    if (location === TOOLS || location === COMMUNITY || location === '/admin/panel') return;
    const provider = location?.startsWith(`${fake.url}/github/`)
      ? 'github'
      : location?.startsWith(`${fake.url}/discord/`)
        ? 'discord'
        : null;
    if (provider) {
      const target = new URL(location!);
      expect(`${target.origin}${target.pathname}`, url).toBe(`${fake.url}/${provider}/authorize`);
      expect(target.searchParams.get('redirect_uri'), url).toBe(
        `${TEST_ORIGIN}/api/auth/${provider}/callback`,
      );
      return;
    }
    throw new Error(`unexpected redirect from ${url} (${status}) to ${location}`);
  }

  async function check(url: string) {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBeLessThan(500);
      expectAllowedLocation(url, res.statusCode, res.headers.location as string | undefined);
    }
  }

  it('go only to configured targets whatever the query', async () => {
    const params = [
      'next',
      'url',
      'redirect',
      'redirect_uri',
      'return_to',
      'returnTo',
      'continue',
      'target',
      'to',
      'dest',
    ];
    for (const path of [
      '/tools',
      '/discord',
      '/admin',
      '/api/auth/github',
      '/api/auth/discord',
      ...WEB_ROUTES,
      '/api/auth/logout',
    ]) {
      await check(path);
      for (const p of params)
        for (const evil of EVIL) await check(`${path}?${p}=${encodeURIComponent(evil)}`);
      await check(
        `${path}?redirect_uri=${encodeURIComponent('https://evil.example/cb')}&state=forged&client_id=x`,
      );
    }
  });

  it('never follow a path that looks like another host', async () => {
    for (const url of [
      '//evil.example',
      '//evil.example/',
      '//evil.example/%2e%2e',
      '///evil.example/',
      '/\\evil.example',
      '/%2F%2Fevil.example',
      '/%5C%5Cevil.example',
      '/assets',
      '//evil.example/assets',
      '/assets/',
      '/assets/..%2f..%2f',
      '/tools/',
      '/tools//evil.example',
      '/discord/..%2f%2fevil.example',
      '/admin/',
      '/admin//evil.example',
      '/admin/panel/',
      '/login/',
      '/compete/',
      '/.%2e/.%2e/evil',
      '/api/auth/github/',
      '/api/auth/github/callback/',
      '/api/auth/github/evil.example',
    ]) {
      await check(url);
      // And byte for byte over a socket, where no client tidies the path first.
      const raw = await rawRequest(port, url);
      expect(raw.status, url).toBeLessThan(500);
      expectAllowedLocation(url, raw.status, raw.location);
    }
  });

  it('go only to configured targets for generated paths and queries', async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        'tools',
        'discord',
        'admin',
        'api',
        'auth',
        'github',
        '',
        '.',
        '..',
        '%2e%2e',
        '%2f',
        '%5c',
        'evil.example',
        '@evil.example',
      ),
      fc.string({ maxLength: 6 }).map(encodeURIComponent),
    );
    const query = fc.array(
      fc.tuple(fc.string({ maxLength: 8 }), fc.oneof(fc.constantFrom(...EVIL), fc.string({ maxLength: 12 }))),
      { maxLength: 3 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 4 }), query, async (segments, pairs) => {
        const qs = pairs.length ? `?${new URLSearchParams(pairs).toString()}` : '';
        await check(`/${segments.join('/')}${qs}`);
      }),
      { numRuns: 150 },
    );
  });

  it('the callback page script goes nowhere a request could choose', () => {
    expect(POPUP_SCRIPT).not.toMatch(
      /location\.(search|hash)|document\.referrer|URLSearchParams|getAttribute\('data-next/,
    );
    const navigations = [...POPUP_SCRIPT.matchAll(/location\.(replace|assign|href)\s*\(?\s*([^)\n;]*)/g)].map(
      (m) => m[2]!.trim(),
    );
    expect(navigations).toEqual(["'/compete'"]);
  });
});
