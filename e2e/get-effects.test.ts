import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOAuthProvider } from '../server/test/fake-oauth-provider.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import type { HttpClient } from './support/http.js';
import { oauthClient, sessionValue } from './support/oauth-http.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * Issue 29, reproduction 2, in Chromium: an image pointing at a GET that acts (logout,
 * force_update, the export) must not act, however it reached the page; the browser's own Fetch
 * Metadata (`Sec-Fetch-Dest: image`) is what the server refuses. The app's own calls of the same
 * routes (the Logout button) still work.
 */

const run = browserAvailable();

describe.runIf(run)('GETs that act, from images, in Chromium', () => {
  const fake = new FakeOAuthProvider();
  let server: RunningServer;
  let browser: Browser;
  let admin: HttpClient;
  let player: HttpClient;

  async function pageAs(client: HttpClient): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext();
    await context.addCookies([
      { name: 'ctf_session', value: sessionValue(client), url: server.url, httpOnly: true, sameSite: 'Lax' },
    ]);
    const page = await context.newPage();
    await page.goto(`${server.url}/compete`);
    await page.waitForLoadState('networkidle');
    return { context, page };
  }

  /** Puts images straight into the DOM (past both sanitisers) and answers each one's HTTP status. */
  async function loadImages(page: Page, paths: string[]): Promise<number[]> {
    const statuses = paths.map((p) =>
      page.waitForResponse((r) => new URL(r.url()).pathname === p).then((r) => r.status()),
    );
    await page.evaluate((srcs) => {
      for (const src of srcs) {
        const img = document.createElement('img');
        img.src = src;
        document.body.append(img);
      }
    }, paths);
    return Promise.all(statuses);
  }

  const authenticated = (page: Page) =>
    page.evaluate(async () => ((await (await fetch('/api/authenticated')).json()) as { message: string }).message);

  beforeAll(async () => {
    await fake.start();
    server = await startServer({ ...fake.env(), ADMINS: 'github:effects-admin' });
    browser = await launchBrowser();
    admin = await oauthClient(server.url, fake, { id: '1', login: 'effects-admin' });
    player = await oauthClient(server.url, fake, { id: '2', login: 'effects-player' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake.stop();
  });

  it("an admin's page loading force_update and the export as images runs neither, and nothing is audited", async () => {
    const audits = async () => ((await admin.get(server.url, '/api/admin/audit')).body.rows as unknown[]).length;
    const before = await audits();
    const { context, page } = await pageAs(admin);
    expect(await loadImages(page, ['/api/admin/ctf/force_update', '/api/admin/ctf/export'])).toEqual([403, 403]);
    expect(await audits()).toBe(before);
    expect(await authenticated(page)).toBe('Authorized');
    await context.close();
  });

  it("a player's page loading logout as an image stays logged in; the Logout button still logs out", async () => {
    const { context, page } = await pageAs(player);
    expect(await loadImages(page, ['/api/auth/logout'])).toEqual([403]);
    expect(await authenticated(page)).toBe('Authorized');
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${server.url}/login`);
    expect(await authenticated(page)).not.toBe('Authorized');
    await context.close();
  });
});
