import { readFile } from 'node:fs/promises';
import { siteApi } from '@ctf/contract';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { getSiteInfo } from '../modules/site/site.service.js';
import { route } from './route.js';
import { registerSessions } from './session.js';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../test/build-test-app.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

describe('cross-cutting plugins', () => {
  it('sends the security headers on API and HTML answers', async () => {
    t = await buildTestApp();
    for (const url of [
      '/api/info/site',
      '/api/nope',
      '/api/info/leaderboard',
      '/',
      '/compete',
      '/no-such-page',
    ]) {
      const res = await t.visitor().get(url);
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).not.toContain("unsafe-inline';script");
      expect(csp, url).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['cross-origin-opener-policy'], url).toBe('same-origin-allow-popups');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      if (url.startsWith('/api/')) {
        // JSON is never a document: nothing may load from it, and the page-only headers stay off.
        expect(csp, url).toBe("default-src 'none'; frame-ancestors 'none'");
        expect(res.headers['x-xss-protection'], url).toBeUndefined();
      } else {
        expect(csp, url).toMatch(/script-src 'self'(;|$)/);
        expect(res.headers['x-xss-protection'], url).toBe('0');
      }
    }
  });

  it('sends the API set on a 304 of a cached answer, and the page set on HTML under /api', async () => {
    t = await buildTestApp();
    const first = await t.visitor().get('/api/info/leaderboard');
    const revalidated = await t.app.inject({
      method: 'GET',
      url: '/api/info/leaderboard',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    const page = await t.app.inject({ method: 'GET', url: '/api/auth/github/callback?error=access_denied' });
    expect(String(page.headers['content-type'])).toContain('text/html');
    expect(String(page.headers['content-security-policy'])).toMatch(/script-src 'self'(;|$)/);
  });

  it('accepts a POST with a same-origin Referer and no Origin, and refuses foreign or missing ones', async () => {
    t = await buildTestApp();
    const post = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/auth/local', payload: { username: 'refy' }, headers });
    expect((await post({ referer: `${TEST_ORIGIN}/login` })).statusCode).toBe(200);
    expect((await post({})).statusCode).toBe(403);
    expect((await post({ referer: 'https://evil.example/login' })).statusCode).toBe(403);
    expect((await post({ origin: 'null' })).statusCode).toBe(403);
    expect((await post({ origin: `${TEST_ORIGIN}.evil.example` })).statusCode).toBe(403);
  });

  it('answers unknown API paths, bad JSON and oversized bodies with clear 4xx JSON', async () => {
    t = await buildTestApp();
    const missing = await t.visitor().get('/api/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Not found' });
    const badJson = await t.visitor().request({
      method: 'POST',
      url: '/api/auth/local',
      payload: '{"username":',
      headers: { 'content-type': 'application/json' },
    });
    expect(badJson.status).toBe(400);
    expect(badJson.body.message).toBe('Request body is not valid JSON');
    const huge = await t.visitor().post('/api/auth/local', { username: 'x'.repeat(200_000) });
    expect(huge.status).toBe(413);
    expect(huge.body.message).toBe('Request body is too large');
    const wrongType = await t.visitor().request({
      method: 'POST',
      url: '/api/auth/local',
      payload: 'username=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(wrongType.status).toBe(415);
  });

  it('serves the web routes of docs/product.md and redirects only to configured targets', async () => {
    t = await buildTestApp('sqlite', {
      TOOLS_URL: 'https://tools.example.org/',
      COMMUNITY_URL: 'https://chat.example.org/x',
    });
    expect((await t.visitor().get('/tools')).headers.location).toBe('https://tools.example.org/');
    expect((await t.visitor().get('/discord')).headers.location).toBe('https://chat.example.org/x');
    expect((await t.visitor().get('/admin')).headers.location).toBe('/admin/panel');
    expect((await t.visitor().get('/tools?next=https://evil.example')).headers.location).toBe(
      'https://tools.example.org/',
    );
    for (const url of [
      '/',
      '/login',
      '/profile?mode=1',
      '/compete',
      '/challenge?id=1',
      '/leaderboard',
      '/admin/panel',
    ]) {
      const res = await t.visitor().get(url);
      expect(res.status).toBe(200);
      expect(String(res.headers['content-type'])).toContain('text/html');
    }
  });

  it('applies the optional per-address limit to API calls only', async () => {
    t = await buildTestApp('sqlite', { IP_RATE_LIMIT_PER_MINUTE: '3' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await t.visitor().get('/api/info/site')).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const limited = await t.visitor().get('/api/info/site');
    expect(limited.body.message).toMatch(/Too many requests from this address/);
    expect((await t.visitor().get('/')).status).toBe(200);
  });

  it('reports health', async () => {
    t = await buildTestApp();
    const res = await t.visitor().get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', database: true, redis: null });
    // The version it reports is the release's, as the root package.json (and CHANGELOG.md) name it.
    const rootPackage = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8'));
    expect(res.body.version).toBe(rootPackage.version);
  });
});

describe('route access', () => {
  it("never looks up the session of an 'anonymous' endpoint, and does for a 'public' one", async () => {
    t = await buildTestApp();
    const alice = await t.login('alice');
    const seen: Record<string, number | null> = {};
    const app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await registerSessions(app, t.ctx);
    for (const access of ['anonymous', 'public'] as const) {
      route(app, { ...siteApi.siteInfo, path: `/${access}` }, access, async (request) => {
        seen[access] = request.user?.id ?? null;
        return JSON.parse((await getSiteInfo(t.ctx)).json) as never;
      });
    }
    await app.ready();
    for (const access of ['anonymous', 'public']) {
      const res = await app.inject({ method: 'GET', url: `/${access}`, headers: { cookie: alice.cookie! } });
      expect(res.statusCode, access).toBe(200);
    }
    expect(seen).toEqual({ anonymous: null, public: alice.user!.id });
    await app.close();
  });
});
