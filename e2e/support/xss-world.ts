import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { expect } from 'vitest';
import { FakeOAuthProvider } from '../../server/test/fake-oauth-provider.js';
import { launchBrowser } from './browser.js';
import { dangerousDom, DESCRIPTIONS, SOLO_TEAMLESS, TEAM_NAME, USERNAMES } from './hostile-content.js';
import type { HttpClient } from './http.js';
import { oauthClient, sessionValue } from './oauth-http.js';
import { startServer, type RunningServer } from './server.js';

/** One server (behind a fake OAuth provider) and one Chromium, holding the hostile content. */
export interface HostileWorld {
  readonly fake: FakeOAuthProvider;
  readonly server: RunningServer;
  readonly browser: Browser;
  /** The admin (GitHub handle `xss-admin`) over plain HTTP. */
  readonly admin: HttpClient;
  /** Challenge ids by name: one challenge per entry of DESCRIPTIONS. */
  readonly ids: Map<string, string>;
  /** The team's leader, the first of USERNAMES. */
  readonly leader: HttpClient;
  /** The teamless player SOLO_TEAMLESS. */
  readonly solo: HttpClient;
  /** A new browser context holding a client's session. */
  contextOf(client: HttpClient): Promise<BrowserContext>;
  /** Opens a page that records every dialog (and dismisses it) and waits for the app to settle. */
  open(
    context: BrowserContext,
    url: string,
    settle?: boolean,
  ): Promise<{ page: Page; response: Response | null }>;
  /** Asserts that nothing hostile ran or is left in the page: no __xss, no dangerous DOM, no dialog. */
  expectInert(page: Page, where: string): Promise<void>;
  /** Closes the browser, the server and the fake provider (whatever of them was started). */
  close(): Promise<void>;
}

/**
 * Starts the fake provider, the server and the browser; the admin opens the site and creates one
 * challenge per hostile description (with a hostile name and author too); the players of USERNAMES
 * log in and form TEAM_NAME (the leader accepts one request), SOLO_TEAMLESS logs in alone; and the
 * leader and the teamless player each solve a challenge, so both show on the leaderboard. If any
 * step fails, whatever was started is closed before the error is passed on.
 */
export async function buildHostileWorld(): Promise<HostileWorld> {
  const fake = new FakeOAuthProvider();
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await server?.stop();
    await fake.stop();
  };
  try {
    await fake.start();
    server = await startServer({ ...fake.env(), ADMINS: 'github:xss-admin' });
    browser = await launchBrowser();
    const admin = await oauthClient(server.url, fake, { id: '1', login: 'xss-admin' });
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
    const ids = new Map(listed.map((c) => [c.name, c._id]));
    const players: HttpClient[] = [];
    for (const [i, login] of USERNAMES.entries())
      players.push(await oauthClient(server.url, fake, { id: `${100 + i}`, login }));
    const leader = players[0]!;
    const solo = await oauthClient(server.url, fake, { id: '200', login: SOLO_TEAMLESS });
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

    const url = server.url;
    const started = browser;
    const dialogs: string[] = [];
    return {
      fake,
      server,
      browser,
      admin,
      ids,
      leader,
      solo,
      async contextOf(client) {
        const context = await started.newContext();
        await context.addCookies([
          { name: 'ctf_session', value: sessionValue(client), url, httpOnly: true, sameSite: 'Lax' },
        ]);
        return context;
      },
      async open(context, path, settle = true) {
        const page = await context.newPage();
        page.on('dialog', (d) => {
          dialogs.push(`${page.url()}: ${d.message()}`);
          void d.dismiss();
        });
        const response = await page.goto(`${url}${path}`);
        if (settle) await page.waitForLoadState('networkidle');
        return { page, response };
      },
      async expectInert(page, where) {
        // Give handlers and timers that might have slipped through a moment to fire.
        await page.waitForTimeout(150);
        expect(
          await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss),
          where,
        ).toBeUndefined();
        expect(await dangerousDom(page), where).toEqual([]);
        expect(dialogs, where).toEqual([]);
      },
      close,
    };
  } catch (error) {
    // The set-up's own error is the one worth reporting, not a failure to close half of it.
    await close().catch(() => undefined);
    throw error;
  }
}
