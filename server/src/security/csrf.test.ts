import { adminApi, settingsApi, writeupsApi } from '@ctf/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, buildTestApp, type TestApp, type TestClient } from '../../test/build-test-app.js';
import { changedTables, snapshotDatabase } from '../../test/db-snapshot.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { FakeOAuthProvider } from '../../test/fake-oauth-provider.js';
import { registeredRoutes } from '../../test/registered-routes.js';
import { WORLD_FILE, buildWorld, type World } from '../../test/security-world.js';
import { contractEndpoints } from '../../test/zod-arbitrary.js';
import { makeZip } from '../lib/zip.js';
import { WEB_ROUTES } from '../plugins/web-app.js';

/**
 * Cross-site defences (docs/product.md §11, §14): every POST needs our Origin (or Referer), cookies are
 * HttpOnly and SameSite (Secure and __Host- on https), and every HTML answer carries the CSP,
 * nosniff, frame-ancestors and COOP headers the login popup is built to live with.
 */

const CROSS_SITE = /Cross-site request refused/;

/** A body each POST would accept, so only the Origin check can be what refuses it. */
function validBody(w: World, path: string): { payload: unknown; headers?: Record<string, string> } {
  const bodies: Record<string, unknown> = {
    '/api/auth/local': { username: 'csrf-victim' },
    '/api/team/create': { team_name: 'Csrf Team' },
    '/api/team/request': { team_name: 'Other Team' },
    '/api/team/update': { team_name: 'Renamed By Csrf' },
    '/api/team/replace-leader': { team_data: { name: 'Fuzz Team' } },
    '/api/team/remove-member': { member_username: 'fuzz-member' },
    '/api/team/add-member': { request_id: w.ids.request, checksum: w.checksum },
    '/api/info/get-completions': { userCompletions: [], teamCompletions: [] },
    '/api/ctf/challenge': { challenge_id: w.ids.active },
    '/api/ctf/submit-flag': { challenge_id: w.ids.active, flag: w.flags.active },
    '/api/ctf/rate-challenge': { challenge_id: w.ids.active, rating: 5 },
    '/api/ctf/unlock-hint': { hint_id: 1 },
    '/api/admin/remove_team': { team_id: w.ids.otherTeam },
    '/api/admin/remove_user': { user_id: w.other.user!.id },
    '/api/admin/remove_admin': { username: 'fuzz-admin2' },
    '/api/admin/ctf/create_challenge': {
      name: 'Csrf',
      category: 'General',
      difficulty: 'Easy',
      written_by: 'x',
      flag: 'f',
    },
    '/api/admin/ctf/update_challenge': {
      challenge_id: w.ids.active,
      name: 'Fuzz Active',
      category: 'General',
      difficulty: 'Easy',
      written_by: 'x',
      flag: 'changed',
    },
    '/api/admin/ctf/toggle_status': { challenge_id: w.ids.active },
    '/api/admin/ctf/delete_challenge': { challenge_id: w.ids.inactive },
    '/api/admin/ctf/schedule_release': { challenge_ids: [w.ids.active], release_at: null },
    '/api/admin/ctf/delete_file': { filename: WORLD_FILE },
    '/api/admin/ctf/reveal_team_flag': { challenge_id: w.ids.active, competitor: 'Fuzz Team' },
    '/api/admin/update_site_info': { activated: false },
    '/api/admin/scoreboard/freeze': { freeze_at: null },
    '/api/admin/settings': { name: 'Csrf CTF' },
    '/api/admin/divisions': { divisions: [{ name: 'Csrf', emailDomains: [] }] },
    '/api/user/division': { division: null },
    '/api/admin/moderate': { target: 'user', name: w.other.user!.username, action: 'hide', reason: 'csrf' },
    '/api/admin/promote_admin': { username: w.other.user!.username },
    '/api/admin/set_role': { user_id: String(w.other.user!.id), role: 'monitor' },
    '/api/admin/set_competing': { user_id: String(w.other.user!.id), competing: true },
    '/api/admin/announcements/create': { title: 'Csrf', body: 'Hello' },
    '/api/admin/announcements/update': { _id: '1', title: 'Csrf', body: 'Hello', pinned: false },
    '/api/admin/announcements/delete': { _id: '1' },
    '/api/ctf/instance/start': { challenge_id: w.ids.active },
    '/api/ctf/instance/renew': { challenge_id: w.ids.active },
    '/api/ctf/instance/stop': { challenge_id: w.ids.active },
    '/api/admin/instances/stop': { instance_id: '1' },
    '/api/user/tokens': { name: 'csrf' },
    '/api/user/tokens/delete': { token_id: '1' },
    '/api/admin/sample_challenges': {},
    '/api/admin/awards': { user_id: String(w.other.user!.id), points: 10, reason: 'Csrf' },
    '/api/admin/awards/delete': { award_id: '1' },
    '/api/admin/writeups/review': { writeup_id: '1', reviewed: true, published: true },
    '/api/auth/registration-code': { code: 'csrf' },
    '/api/auth/register': { username: 'csrf', email: 'csrf@uni.example', password: 'csrf csrf csrf' },
    '/api/auth/login': { email: 'csrf@uni.example', password: 'csrf csrf csrf' },
    '/api/auth/password/forgot': { email: 'csrf@uni.example' },
    '/api/auth/password/reset': { token: 'csrf', password: 'csrf csrf csrf' },
    '/api/user/identities/email': { email: 'csrf@uni.example', password: 'csrf csrf csrf' },
    '/api/user/identities/unlink': { provider: 'github' },
    '/api/admin/users/resend-confirmation': { user_id: String(w.other.user!.id) },
    '/api/admin/blocked-emails': { email: 'csrf@uni.example', blocked: true },
  };
  if (path === settingsApi.uploadLogo.path) {
    const boundary = 'csrfBoundary';
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    return {
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    };
  }
  if (path === adminApi.upload.path || path === adminApi.importChallenges.path) {
    const boundary = 'csrfBoundary';
    const zip =
      path === adminApi.upload.path
        ? makeZip([{ name: 'a.txt', content: 'a' }])
        : makeZip([
            {
              name: 'csrf/challenge.yml',
              content: 'name: Csrf Import\nauthor: x\ncategory: General\nvalue: 50\nflags:\n  - flag{csrf}\n',
            },
          ]);
    return {
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="csrf.zip"\r\nContent-Type: application/zip\r\n\r\n`,
        ),
        zip,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    };
  }
  if (path === writeupsApi.submitWriteup.path) {
    const boundary = 'csrfBoundary';
    return {
      payload: Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="challenge_id"\r\n\r\n${w.ids.active}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="url"\r\n\r\nhttps://example.org/csrf\r\n--${boundary}--\r\n`,
      ),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    };
  }
  if (!(path in bodies)) throw new Error(`no valid body for POST ${path}: add one to the CSRF suite`);
  return { payload: JSON.stringify(bodies[path]), headers: { 'content-type': 'application/json' } };
}

/** Origin and Referer combinations a cross-site page (or a non-browser forger) can produce. */
const FOREIGN: { what: string; headers: Record<string, string> }[] = [
  { what: 'no Origin and no Referer', headers: {} },
  { what: 'a foreign Origin', headers: { origin: 'https://evil.example' } },
  { what: 'Origin null', headers: { origin: 'null' } },
  { what: 'our origin as a prefix of another host', headers: { origin: `${TEST_ORIGIN}.evil.example` } },
  { what: 'our host on another port', headers: { origin: 'http://localhost:3001' } },
  { what: 'our host over another scheme', headers: { origin: 'https://localhost:3000' } },
  { what: 'a loopback alias on another port', headers: { origin: 'http://127.0.0.1:3001' } },
  { what: 'a loopback alias over another scheme', headers: { origin: 'https://[::1]:3000' } },
  { what: 'our host as a userinfo trick', headers: { origin: `http://localhost:3000@evil.example` } },
  { what: 'a foreign Referer', headers: { referer: 'https://evil.example/page' } },
  { what: 'a Referer on a look-alike host', headers: { referer: `${TEST_ORIGIN}.evil.example/` } },
  {
    what: 'a foreign Origin with our Referer',
    headers: { origin: 'https://evil.example', referer: `${TEST_ORIGIN}/compete` },
  },
  { what: 'a Referer that is not a URL', headers: { referer: 'not a url' } },
];

for (const kind of testDatabaseKinds()) {
  describe(`cross-site requests on ${kind}`, () => {
    let w: World;
    beforeAll(async () => {
      w = await buildWorld(kind);
    });
    afterAll(async () => {
      await w.t.close();
    });

    it('the contract lists every POST route the app serves', () => {
      const served = registeredRoutes(w.t.app)
        .filter((r) => r.method === 'POST')
        .map((r) => r.path)
        .sort();
      const contract = contractEndpoints()
        .filter((e) => e.endpoint.method === 'POST')
        .map((e) => e.endpoint.path)
        .sort();
      expect(served).toEqual(contract);
      expect(served.length).toBeGreaterThanOrEqual(20);
    });

    it('refuses every POST without our Origin or Referer, as visitor, participant and admin, changing nothing', async () => {
      const posts = registeredRoutes(w.t.app).filter((r) => r.method === 'POST');
      const before = await snapshotDatabase(w.t.ctx);
      const clients: [string, TestClient | null][] = [
        ['visitor', null],
        ['participant', w.leader],
        ['admin', w.admin],
      ];
      for (const { path } of posts) {
        const { payload, headers } = validBody(w, path);
        for (const [role, client] of clients) {
          for (const variant of FOREIGN) {
            const res = await w.t.app.inject({
              method: 'POST',
              url: path,
              payload: payload as string,
              headers: { ...headers, ...variant.headers, ...(client ? { cookie: client.cookie! } : {}) },
            });
            const context = `${role} POST ${path} with ${variant.what}`;
            expect(res.statusCode, context).toBe(403);
            expect(res.json().message, context).toMatch(CROSS_SITE);
          }
        }
      }
      expect(changedTables(before, await snapshotDatabase(w.t.ctx))).toEqual([]);
    });

    it('lets the same POSTs through the check with our Origin, or our Referer alone', async () => {
      const posts = registeredRoutes(w.t.app).filter((r) => r.method === 'POST');
      for (const [i, { path }] of posts.entries()) {
        const { payload, headers } = validBody(w, path);
        const client = path.startsWith('/api/admin/')
          ? w.admin
          : path === '/api/auth/local'
            ? null
            : w.leader;
        const own = i % 2 === 0 ? { origin: TEST_ORIGIN } : { referer: `${TEST_ORIGIN}/admin/panel?tab=1` };
        const res = await w.t.app.inject({
          method: 'POST',
          url: path,
          payload: payload as string,
          headers: { ...headers, ...own, ...(client ? { cookie: client.cookie! } : {}) },
        });
        expect(res.statusCode, `POST ${path}: ${res.body}`).toBeLessThan(500);
        expect(res.body, `POST ${path}`).not.toMatch(CROSS_SITE);
      }
    });

    it('refuses other state-changing methods cross-site too', async () => {
      for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
        const res = await w.t.app.inject({
          method,
          url: '/api/team/create',
          payload: { team_name: 'x' },
          headers: { cookie: w.leader.cookie! },
        });
        expect(res.statusCode, method).toBe(403);
      }
    });
  });
}

describe('cookies', () => {
  const fake = new FakeOAuthProvider();
  let t: TestApp;
  beforeAll(async () => {
    await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });
  afterEach(async () => {
    await t?.close();
  });

  it('the session cookie is HttpOnly, SameSite=Lax and site-wide on http, and logout expires it', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/local',
      payload: { username: 'cookie-check' },
      headers: { origin: TEST_ORIGIN },
    });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'ctf_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.domain).toBeUndefined();
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const out = await t.app.inject({
      method: 'GET',
      url: '/api/auth/logout',
      headers: { cookie: `ctf_session=${cookie.value}` },
    });
    const cleared = out.cookies.find((c) => c.name === 'ctf_session')!;
    expect(cleared.value).toBe('');
    expect(cleared.httpOnly).toBe(true);
    expect(new Date(cleared.expires!).getTime()).toBeLessThan(Date.now());
  });

  it('on https the session cookie is __Host- prefixed and Secure, and the OAuth state cookie is Secure, short and scoped', async () => {
    t = await buildTestApp('sqlite', { ...fake.env(), PUBLIC_URL: 'https://ctf.example.org' });
    const start = await t.app.inject({ method: 'GET', url: '/api/auth/github' });
    const state = start.cookies.find((c) => c.name === 'ctf_oauth_state')!;
    expect(state).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/api/auth' });
    expect(state.maxAge).toBeLessThanOrEqual(600);
    fake.nextProfile = { id: '77', login: 'secure-user' };
    const toProvider = await fetch(start.headers.location as string, { redirect: 'manual' });
    const back = new URL(toProvider.headers.get('location')!);
    expect(back.origin).toBe('https://ctf.example.org');
    const callback = await t.app.inject({
      method: 'GET',
      url: back.pathname + back.search,
      headers: { cookie: `ctf_oauth_state=${state.value}` },
    });
    expect(callback.body).toContain('OAUTH_SUCCESS');
    const session = callback.cookies.find((c) => c.name === '__Host-ctf_session')!;
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
    expect(session.domain).toBeUndefined();
    expect(callback.cookies.find((c) => c.name === 'ctf_session')).toBeUndefined();
    // The plain name is not read on https, so a cookie planted by a sibling http origin is ignored.
    const planted = await t.app.inject({
      method: 'GET',
      url: '/api/authenticated',
      headers: { cookie: `ctf_session=${session.value}` },
    });
    expect(planted.statusCode).toBe(401);
    const real = await t.app.inject({
      method: 'GET',
      url: '/api/authenticated',
      headers: { cookie: `__Host-ctf_session=${session.value}` },
    });
    expect(real.statusCode).toBe(200);
  });
});

describe('security headers on every HTML answer', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  function expectHtmlHeaders(headers: Record<string, unknown>, what: string) {
    const csp = String(headers['content-security-policy'] ?? '');
    const directives = new Map(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name!, values] as const;
      }),
    );
    expect(directives.get('script-src'), `${what}: script-src`).toEqual(["'self'"]);
    expect(directives.get('default-src'), what).toEqual(["'self'"]);
    expect(directives.get('object-src'), what).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors'), what).toEqual(["'none'"]);
    expect(directives.get('base-uri'), what).toEqual(["'self'"]);
    expect(csp, what).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline|script-src[^;]*\*/);
    expect(headers['x-content-type-options'], what).toBe('nosniff');
    expect(headers['cross-origin-opener-policy'], what).toBe('same-origin-allow-popups');
    expect(headers['x-frame-options'], what).toBe('DENY');
    expect(String(headers['content-type']), what).toContain('text/html');
  }

  it('on every page of the app, the not-found page and the static index', async () => {
    const urls = [
      ...WEB_ROUTES,
      '/profile?mode=1',
      '/challenge?id=1',
      '/no-such-page',
      '/deep/no/such/page',
      '/index.html',
    ];
    for (const url of urls) {
      const res = await t.app.inject({ method: 'GET', url });
      expectHtmlHeaders(res.headers, url);
    }
  });

  it('on the OAuth callback and error pages, which also send no Referer', async () => {
    for (const url of [
      '/api/auth/github',
      '/api/auth/discord',
      '/api/auth/github/callback?code=x&state=y',
      '/api/auth/discord/callback?error=access_denied',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expectHtmlHeaders(res.headers, url);
      expect(res.body, url).toContain('OAUTH_ERROR');
      if (url.includes('callback')) expect(res.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });

  it('the callback page has no inline script, so the CSP allows exactly what it needs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/github/callback?code=x&state=y' });
    const scripts = [...res.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBe(1);
    expect(scripts[0]![1]).toContain('src="/api/auth/popup.js"');
    expect(scripts[0]![2]!.trim()).toBe('');
    expect(res.body).not.toMatch(/\son[a-z]+=/i);
  });
});
