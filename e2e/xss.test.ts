import Database from 'better-sqlite3';
import path from 'node:path';
import type { Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable } from './support/browser.js';
import { DESCRIPTIONS, SOLO_TEAMLESS, TEAM_NAME, USERNAMES } from './support/hostile-content.js';
import { buildHostileWorld, type HostileWorld } from './support/xss-world.js';

/**
 * Hostile content in a real browser (docs/security.md). Challenge HTML with scripts, event handlers,
 * javascript: URLs, SVG, style and mutation tricks is created through the admin API and must come
 * out inert from the API and on /compete and /challenge; the same HTML written straight into the
 * database (past the server's sanitiser) must still render inert (the browser's DOMPurify); an
 * inline script injected into a page must not run (the CSP). Team names and usernames made of HTML
 * render as text on the leaderboard, the team page and the admin panel. The pages carry the
 * security headers, and the login popup still works under them.
 */

const run = browserAvailable();

describe.runIf(run)('hostile content in Chromium', () => {
  let world: HostileWorld;

  beforeAll(async () => {
    world = await buildHostileWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  it('the API hands out challenge HTML already inert', async () => {
    const { server, admin, ids, solo } = world;
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
    const { server, ids, solo, contextOf, open, expectInert } = world;
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
    const { server, admin, ids, solo, contextOf, open, expectInert } = world;
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
    const { solo, contextOf, open } = world;
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
    const { leader, contextOf, open, expectInert } = world;
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
    const { admin, contextOf, open, expectInert } = world;
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
    const { server, ids, solo, contextOf, open } = world;
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
    const { fake, server, browser } = world;
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
    const { server, browser } = world;
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
