import type { Browser, BrowserContext, Dialog, Page } from 'playwright-core';
import { expect } from 'vitest';
import { launchBrowser } from './browser.js';
import { submitFlagThroughForm } from './flag-form.js';
import { HttpClient } from './http.js';
import { startServer, type RunningServer } from './server.js';
import { localSignIn } from './session.js';

/** The challenges the organiser creates over HTTP before the integrity scenarios, in this order. */
export const INTEGRITY_CHALLENGES = [
  { name: 'Warm Up', flag: 'flag{warm-up}' },
  { name: 'Cipher Wheel', flag: 'flag{cipher-wheel}' },
  { name: 'Twin Peaks', flag: 'flag{twin-peaks}' },
];

/** The players' browsers: two with a team each, and a teamless one (the one who gets banned). */
const PLAYERS = [
  ['alice', 'Red Rockets'],
  ['bob', 'Blue Barons'],
  ['mallory', null],
] as const;

export type IntegrityPlayer = (typeof PLAYERS)[number][0];

/**
 * One server and one Chromium shared by the integrity scenarios, which run in order and build on
 * each other's actions (the Audit tab lists what the earlier scenarios did).
 */
export interface IntegrityWorld {
  readonly server: RunningServer;
  readonly browser: Browser;
  /** The organiser over plain HTTP, for set-up and for reading what the panel should show. */
  readonly organiser: HttpClient;
  /** Challenge ids by name; a scenario that creates a challenge adds its own. */
  readonly ids: Map<string, string>;
  /** The admin's page, kept open across the scenarios like an organiser's tab on event day. */
  readonly admin: Page;
  /** Answers for the admin page's reason prompts, used in order; every confirm is accepted. */
  readonly reasons: string[];
  /** The text of every dialog the admin page opened, in order. */
  readonly prompts: string[];
  /** A new page in a player's own signed-in context. */
  pageOf(player: IntegrityPlayer): Promise<Page>;
  challengeId(name: string): string;
  /** Opens a challenge in the player's page and sends a flag through its form; answers the message shown. */
  submitFlag(page: Page, challenge: string, flag: string, expected: string): Promise<void>;
  /** Waits until the log (written in batches within a second) holds this many rows. */
  logHolds(count: number): Promise<void>;
  /** Closes every context, the browser and the server (whatever of them was started). */
  close(): Promise<void>;
}

/**
 * Starts the server and the browser; the organiser creates `INTEGRITY_CHALLENGES` and opens the
 * site; alice and bob sign in and make a team each, mallory signs in teamless; and the organiser's
 * admin page is opened in a context that can download files and run axe. If any step fails,
 * whatever was started is closed before the error is passed on.
 */
export async function buildIntegrityWorld(): Promise<IntegrityWorld> {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const contexts = new Map<string, BrowserContext>();
  const close = async () => {
    for (const c of contexts.values()) await c.close();
    await browser?.close();
    await server?.stop();
  };
  try {
    server = await startServer();
    browser = await launchBrowser();
    const organiser = await new HttpClient(server.url).signIn(server.url, 'organiser', true);
    for (const c of INTEGRITY_CHALLENGES) {
      const r = await organiser.post(server.url, '/api/admin/ctf/create_challenge', {
        ...c,
        description: `<p>${c.name}</p>`,
        category: 'General',
        difficulty: 'Easy',
        written_by: 'club',
        files: [],
      });
      expect(r.status, r.text).toBe(200);
    }
    const listed = (await organiser.get(server.url, '/api/admin/ctf/fetch_challenges')).body as {
      _id: string;
      name: string;
    }[];
    const ids = new Map(listed.map((c) => [c.name, c._id]));
    const opened = await organiser.post(server.url, '/api/admin/update_site_info', { activated: true });
    expect(opened.status, opened.text).toBe(200);

    for (const [user, team] of PLAYERS) {
      const c = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      contexts.set(user, c);
      await localSignIn(c, server.url, user);
      if (team) {
        const r = await c.request.post(`${server.url}/api/team/create`, {
          data: { team_name: team },
          headers: { origin: server.url },
        });
        expect(r.status(), await r.text()).toBe(200);
      }
    }
    const adminContext = await browser.newContext({
      acceptDownloads: true,
      // The axe checker's script needs the CSP bypass; the site's own scripts do not.
      bypassCSP: true,
      // No tab fade: axe reads colours, and a pane half faded in has too little contrast.
      reducedMotion: 'reduce',
      viewport: { width: 1400, height: 900 },
    });
    contexts.set('organiser', adminContext);
    await localSignIn(adminContext, server.url, 'organiser', true);
    const admin = await adminContext.newPage();
    const reasons: string[] = [];
    const prompts: string[] = [];
    admin.on('dialog', (d: Dialog) => {
      prompts.push(d.message());
      void (d.type() === 'prompt' ? d.accept(reasons.shift() ?? '') : d.accept());
    });
    const url = server.url;
    const challengeId = (name: string) => ids.get(name)!;
    return {
      server,
      browser,
      organiser,
      ids,
      admin,
      reasons,
      prompts,
      pageOf: (player) => contexts.get(player)!.newPage(),
      challengeId,
      submitFlag: (page, challenge, flag, expected) =>
        submitFlagThroughForm(page, `${url}/challenge?id=${challengeId(challenge)}`, flag, expected),
      async logHolds(count) {
        await expect
          .poll(async () => {
            const r = await organiser.get(url, '/api/admin/submissions?limit=200');
            return (r.body as { rows: unknown[] }).rows.length;
          })
          .toBe(count);
      },
      close,
    };
  } catch (error) {
    // The set-up's own error is the one worth reporting, not a failure to close half of it.
    await close().catch(() => undefined);
    throw error;
  }
}
