import Database from 'better-sqlite3';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOAuthProvider } from '../server/test/fake-oauth-provider.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import type { HttpClient } from './support/http.js';
import { oauthClient, sessionValue } from './support/oauth-http.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * Hostile content in a real browser (docs/product.md §14). Challenge HTML with scripts, event handlers,
 * javascript: URLs, SVG, style and mutation tricks is created through the admin API and must come
 * out inert from the API and on /compete and /challenge; the same HTML written straight into the
 * database (past the server's sanitiser) must still render inert (the browser's DOMPurify); an
 * inline script injected into a page must not run (the CSP). Team names and usernames made of HTML
 * render as text on the leaderboard, the team page and the admin panel. The pages carry the
 * security headers, and the login popup still works under them.
 */

const run = browserAvailable();

/** Every payload, when it runs, sets window.__xss or opens a dialog. */
const DESCRIPTIONS: Record<string, string> = {
  script:
    '<p>a</p><script>window.__xss="script"</script><script src="data:text/javascript,window.__xss=1"></script>',
  'img onerror': '<img src="/nope.png" onerror="window.__xss=\'img\'"><img src=x onerror=alert(1)>',
  'event handlers':
    '<div onmouseover="alert(2)" onclick="alert(2)">hover</div><details open ontoggle="window.__xss=\'details\'"><summary>s</summary></details><body onload="alert(3)">',
  'javascript: links':
    '<a href="javascript:window.__xss=\'link\'">x</a><a href="jav&#x09;ascript:alert(4)">y</a><a href="&#106;avascript:alert(5)">z</a><a href=" javascript:alert(6)">w</a>',
  svg: '<svg onload="window.__xss=\'svg\'"><script>alert(7)</script><animate onbegin="alert(8)" attributeName="x"/><a xlink:href="javascript:alert(9)"><text>t</text></a><foreignObject><img src=x onerror=alert(10)></foreignObject></svg>',
  'svg set href':
    '<svg><a><set attributeName="href" to="javascript:alert(11)"/><text y="20">click</text></a></svg>',
  'style tricks':
    '<style>@import "javascript:alert(12)"; body{background:url("javascript:alert(13)")}</style><p style="position:fixed;top:0;left:0;width:100%;height:100%;background:red">overlay</p><link rel="stylesheet" href="data:text/css,body{}">',
  'frames and objects':
    '<iframe src="javascript:alert(14)"></iframe><iframe srcdoc="<script>parent.__xss=1</script>"></iframe><object data="javascript:alert(15)"></object><embed src="javascript:alert(16)">',
  'forms and meta':
    '<form action="javascript:alert(17)"><button>go</button></form><meta http-equiv="refresh" content="0;url=javascript:alert(18)"><base href="javascript:alert(19)//">',
  'mutation (math/mglyph)': '<math><mtext><table><mglyph><style><img src=x onerror=alert(20)>',
  'mutation (noscript)': '<noscript><p title="</noscript><img src=x onerror=alert(21)>">',
  'mutation (template)':
    '<template><img src=x onerror=alert(22)></template><select><template><img src=x onerror=alert(23)></template></select>',
  'dom clobbering': '<img name="__xss"><form id="__xss"></form><a id="__xss" name="__xss" href="x">c</a>',
};

const USERNAMES = ['<img src=x onerror=alert(31)>', '<svg/onload=alert(32)>', '"><b onmouseover=alert(33)>b'];
const TEAM_NAME = '<img src=x onerror=alert(34)>';
const SOLO_TEAMLESS = '<script>alert(35)</script>';

/** No element that runs code, no handler, no script URL in the app's DOM; none of the styling tricks in descriptions. */
async function dangerousDom(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.getElementById('root')!;
    for (const el of Array.from(root.querySelectorAll('*'))) {
      const tag = el.tagName.toLowerCase();
      if (
        [
          'script',
          'iframe',
          'object',
          'embed',
          'base',
          'meta',
          'link',
          'style',
          'frame',
          'frameset',
          'template',
        ].includes(tag)
      )
        found.push(tag);
      for (const attr of Array.from(el.attributes)) {
        if (/^on/i.test(attr.name)) found.push(`${tag}[${attr.name}]`);
        if (
          /^(href|src|action|formaction|xlink:href|data)$/i.test(attr.name) &&
          /^\s*(javascript|vbscript|data:text\/html)/i.test(attr.value)
        ) {
          found.push(`${tag}[${attr.name}=${attr.value}]`);
        }
      }
    }
    for (const el of Array.from(document.querySelectorAll('[data-testid="challenge-description"] *'))) {
      const tag = el.tagName.toLowerCase();
      if (
        ['svg', 'math', 'form', 'input', 'button', 'select', 'textarea', 'details', 'noscript'].includes(tag)
      )
        found.push(`description ${tag}`);
      if (
        el.hasAttribute('style') ||
        el.hasAttribute('class') ||
        el.hasAttribute('id') ||
        el.hasAttribute('name')
      )
        found.push(`description ${tag} styled or named`);
    }
    return found;
  });
}

describe.runIf(run)('hostile content in Chromium', () => {
  const fake = new FakeOAuthProvider();
  let server: RunningServer;
  let browser: Browser;
  let admin: HttpClient;
  const ids = new Map<string, string>();
  const players: HttpClient[] = [];
  let leader: HttpClient;
  let solo: HttpClient;
  const dialogs: string[] = [];

  async function contextOf(client: HttpClient): Promise<BrowserContext> {
    const context = await browser.newContext();
    await context.addCookies([
      { name: 'ctf_session', value: sessionValue(client), url: server.url, httpOnly: true, sameSite: 'Lax' },
    ]);
    return context;
  }

  /** Opens a page that records every dialog (and dismisses it) and waits for the app to settle. */
  async function open(
    context: BrowserContext,
    url: string,
    settle = true,
  ): Promise<{ page: Page; response: Response | null }> {
    const page = await context.newPage();
    page.on('dialog', (d) => {
      dialogs.push(`${page.url()}: ${d.message()}`);
      void d.dismiss();
    });
    const response = await page.goto(`${server.url}${url}`);
    if (settle) await page.waitForLoadState('networkidle');
    return { page, response };
  }

  async function expectInert(page: Page, where: string) {
    // Give handlers and timers that might have slipped through a moment to fire.
    await page.waitForTimeout(150);
    expect(
      await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss),
      where,
    ).toBeUndefined();
    expect(await dangerousDom(page), where).toEqual([]);
    expect(dialogs, where).toEqual([]);
  }

  beforeAll(async () => {
    await fake.start();
    server = await startServer({ ...fake.env(), ADMINS: 'github:xss-admin' });
    browser = await launchBrowser();
    admin = await oauthClient(server.url, fake, { id: '1', login: 'xss-admin' });
    expect((await admin.post(server.url, '/api/admin/update_site_info', { activated: true })).status).toBe(
      200,
    );
    let n = 0;
    for (const [what, description] of Object.entries(DESCRIPTIONS)) {
      n += 1;
      const res = await admin.post(server.url, '/api/admin/ctf/create_challenge', {
        name: `${what} <img src=x onerror=alert(${n})>`,
        description,
        category: 'Web Exploitation',
        difficulty: 'Easy',
        written_by: `<b onclick=alert(${n})>author</b>`,
        flag: `flag{xss-${n}}`,
      });
      expect(res.status, `${what}: ${res.text}`).toBe(200);
    }
    const listed = (await admin.get(server.url, '/api/admin/ctf/fetch_challenges')).body as {
      _id: string;
      name: string;
      flag: string;
    }[];
    for (const c of listed) ids.set(c.name, c._id);
    for (const [i, login] of USERNAMES.entries())
      players.push(await oauthClient(server.url, fake, { id: `${100 + i}`, login }));
    leader = players[0]!;
    solo = await oauthClient(server.url, fake, { id: '200', login: SOLO_TEAMLESS });
    expect((await leader.post(server.url, '/api/team/create', { team_name: TEAM_NAME })).status).toBe(200);
    for (const p of players.slice(1))
      expect((await p.post(server.url, '/api/team/request', { team_name: TEAM_NAME })).status).toBe(200);
    const requests = (await leader.get(server.url, '/api/team/info')).body.join_requests as {
      _id: string;
      checksum: string;
    }[];
    expect(
      (
        await leader.post(server.url, '/api/team/add-member', {
          request_id: requests[0]!._id,
          checksum: requests[0]!.checksum,
        })
      ).status,
    ).toBe(200);
    // Points for the team and the teamless player, so both show on the leaderboard.
    for (const [i, c] of listed.slice(0, 2).entries()) {
      const who = i === 0 ? leader : solo;
      expect(
        (await who.post(server.url, '/api/ctf/submit-flag', { challenge_id: c._id, flag: c.flag })).body
          .message,
      ).toBe('Correct Flag!');
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake.stop();
  });

  it('the API hands out challenge HTML already inert', async () => {
    const pub = (await solo.get(server.url, '/api/ctf/challenges')).body as {
      _id: string;
      description: string;
    }[];
    const adminList = (await admin.get(server.url, '/api/admin/ctf/fetch_challenges')).body as {
      description: string;
    }[];
    const details = [];
    for (const id of ids.values())
      details.push(
        (await solo.post(server.url, '/api/ctf/challenge', { challenge_id: id })).body as {
          description: string;
        },
      );
    expect(pub).toHaveLength(Object.keys(DESCRIPTIONS).length);
    for (const c of [...pub, ...adminList, ...details]) {
      expect(c.description).not.toMatch(
        /<script|<iframe|<object|<embed|<svg|<math|<style|<form|<meta|<base|<link|<template|<noscript/i,
      );
      expect(c.description).not.toMatch(/\son[a-z]+\s*=|javascript:|style=|\sname=|\sid=/i);
    }
  });

  it('renders every hostile description inert on /compete and /challenge', async () => {
    const context = await contextOf(solo);
    const compete = await open(context, '/compete');
    await expect.poll(() => compete.page.getByTestId('challenge-card').count()).toBeGreaterThan(0);
    await expectInert(compete.page, '/compete');
    // The names and authors are shown as text.
    expect(await compete.page.textContent('#root')).toContain('<img src=x onerror=alert(1)>');
    const { page } = await open(context, '/compete', false);
    for (const [name, id] of ids) {
      await page.goto(`${server.url}/challenge?id=${id}`);
      await expect.poll(() => page.getByTestId('challenge-description').count(), { message: name }).toBe(1);
      await expectInert(page, name);
      expect(await page.getByRole('heading', { level: 1 }).textContent(), name).toBe(name);
    }
    await context.close();
  });

  it("renders HTML stored past the server's sanitiser inert too (the browser's own DOMPurify)", async () => {
    const db = new Database(path.join(server.dataDir, 'ctf.sqlite'));
    try {
      db.pragma('busy_timeout = 5000');
      const raw = Object.values(DESCRIPTIONS).join('');
      db.prepare('update challenges set description = ? where name like ?').run(raw, 'script%');
    } finally {
      db.close();
    }
    expect((await admin.get(server.url, '/api/admin/ctf/force_update')).status).toBe(200);
    const id = [...ids].find(([name]) => name.startsWith('script'))![1];
    const stored = (await solo.post(server.url, '/api/ctf/challenge', { challenge_id: id })).body
      .description as string;
    expect(stored).toContain('<script>'); // the API really hands out the raw HTML now
    const context = await contextOf(solo);
    const { page } = await open(context, `/challenge?id=${id}`);
    await expect.poll(() => page.getByTestId('challenge-description').count()).toBe(1);
    await expectInert(page, 'raw description');
    const compete = await open(context, '/compete');
    await expect.poll(() => compete.page.getByTestId('challenge-card').count()).toBeGreaterThan(0);
    await expectInert(compete.page, '/compete with a raw description');
    await context.close();
  });

  it('blocks inline script injected into a page (the CSP), and reports it', async () => {
    const context = await contextOf(solo);
    const { page } = await open(context, '/compete');
    const violations = await page.evaluate(async () => {
      const seen: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => seen.push(e.violatedDirective));
      document.body.insertAdjacentHTML(
        'beforeend',
        '<img src="/x.png" onerror="window.__xss=\'csp-handler\'">',
      );
      const s = document.createElement('script');
      s.textContent = "window.__xss = 'csp-inline'";
      document.body.appendChild(s);
      const e = document.createElement('script');
      e.src = 'https://evil.example/x.js';
      document.body.appendChild(e);
      await new Promise((r) => setTimeout(r, 300));
      return seen;
    });
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(violations.filter((v) => v.startsWith('script-src')).length).toBeGreaterThanOrEqual(2);
    await context.close();
  });

  it('shows HTML usernames and team names as text on the leaderboard, the team page and the profile', async () => {
    const context = await contextOf(leader);
    const board = await open(context, '/leaderboard');
    await expect.poll(() => board.page.getByTestId('leaderboard-entry').count()).toBe(2);
    const boardText = await board.page.textContent('#root');
    expect(boardText).toContain(TEAM_NAME);
    expect(boardText).toContain(SOLO_TEAMLESS);
    await expectInert(board.page, '/leaderboard');
    const team = await open(context, '/profile?mode=1');
    await expect.poll(() => team.page.textContent('#root')).toContain(USERNAMES[2]!);
    const teamText = await team.page.textContent('#root');
    expect(teamText).toContain(TEAM_NAME);
    expect(teamText).toContain(USERNAMES[0]!);
    expect(teamText).toContain(USERNAMES[1]!);
    await expectInert(team.page, '/profile?mode=1');
    const profile = await open(context, '/profile');
    await expect.poll(() => profile.page.textContent('#root')).toContain(USERNAMES[0]!);
    await expectInert(profile.page, '/profile');
    await context.close();
  });

  it('shows them as text in every tab of the admin panel', async () => {
    const context = await contextOf(admin);
    const { page } = await open(context, '/admin/panel');
    for (const tab of ['Users', 'Teams', 'Admins', 'Solvers', 'View Challenges']) {
      await page.getByRole('tab', { name: tab, exact: true }).click();
      await page.waitForLoadState('networkidle');
      await expectInert(page, `admin ${tab}`);
    }
    await page.getByRole('tab', { name: 'Users', exact: true }).click();
    await expect.poll(() => page.textContent('#root')).toContain(USERNAMES[1]!);
    await page.getByRole('tab', { name: 'Teams', exact: true }).click();
    await expect.poll(() => page.textContent('#root')).toContain(TEAM_NAME);
    await page.getByRole('tab', { name: 'Solvers', exact: true }).click();
    await expect.poll(() => page.textContent('#root')).toContain(SOLO_TEAMLESS);
    await context.close();
  });

  it('sends the CSP, nosniff, frame-ancestors and COOP headers on every page, and cannot be framed', async () => {
    const context = await contextOf(solo);
    for (const url of [
      '/',
      '/login',
      '/compete',
      `/challenge?id=${[...ids.values()][0]}`,
      '/leaderboard',
      '/admin/panel',
      '/no-such-page',
    ]) {
      const { page, response } = await open(context, url, false);
      const headers = response!.headers();
      expect(headers['content-security-policy'], url).toMatch(/script-src 'self'(;|$)/);
      expect(headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(headers['x-content-type-options'], url).toBe('nosniff');
      expect(headers['cross-origin-opener-policy'], url).toBe('same-origin-allow-popups');
      await page.close();
    }
    const framer = await context.newPage();
    await framer.goto(`${server.url.replace('localhost', '127.0.0.1')}/no-such-page`);
    await framer.evaluate((src) => {
      const f = document.createElement('iframe');
      f.src = src;
      document.body.appendChild(f);
    }, `${server.url}/login`);
    // Chromium replaces a frame refused by frame-ancestors with its own error page.
    await expect
      .poll(() =>
        framer
          .frames()
          .find((f) => f !== framer.mainFrame())
          ?.url(),
      )
      .toBe('chrome-error://chromewebdata/');
    await context.close();
  });

  it('logs in through the popup under those headers', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    fake.nextProfile = { id: '300', login: 'popup-user' };
    const login = await page.goto(`${server.url}/login`);
    expect(login!.headers()['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    const callbacks: Response[] = [];
    context.on('response', (r) => {
      if (r.url().startsWith(`${server.url}/api/auth/github/callback`)) callbacks.push(r);
    });
    await page.getByRole('button', { name: 'Login with GitHub' }).click();
    await page.waitForURL(`${server.url}/compete`);
    expect(callbacks).toHaveLength(1);
    expect(callbacks[0]!.headers()['referrer-policy']).toBe('no-referrer');
    expect(callbacks[0]!.headers()['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
    expect(callbacks[0]!.headers()['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    await context.close();
  });

  it("the callback page's message reaches our own origin only", async () => {
    const context = await browser.newContext();
    const listen = async (origin: string) => {
      const page = await context.newPage();
      await page.goto(`${origin}/no-such-page`);
      await page.evaluate(() => {
        (window as unknown as { __got: unknown[] }).__got = [];
        window.addEventListener('message', (e) =>
          (window as unknown as { __got: unknown[] }).__got.push([e.origin, e.data]),
        );
      });
      const popupPromise = page.waitForEvent('popup');
      await page.evaluate(
        (url) => void window.open(url, 'login', 'width=500,height=600'),
        `${server.url}/api/auth/github/callback?error=access_denied`,
      );
      const popup = await popupPromise;
      await popup.waitForEvent('close', { timeout: 3000 }).catch(() => undefined);
      await page.waitForTimeout(300);
      return page.evaluate(() => (window as unknown as { __got: unknown[] }).__got);
    };
    // A page on another origin (the same server reached as 127.0.0.1) opens the callback: it hears nothing.
    expect(await listen(server.url.replace('localhost', '127.0.0.1'))).toEqual([]);
    // The control: our own origin gets the error message.
    expect(await listen(server.url)).toEqual([
      [server.url, { type: 'OAUTH_ERROR', message: 'Login was cancelled.' }],
    ]);
    await context.close();
  });
});
