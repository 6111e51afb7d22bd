import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle } from './support/a11y.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { createSampleChallenges, populateEvent, type DemoEvent } from './support/demo-event.js';
import { HttpClient } from './support/http.js';
import { startServer, type RunningServer } from './support/server.js';
import { localSignIn } from './support/session.js';

const run = browserAvailable();
const webDist = fileURLToPath(new URL('../web/dist', import.meta.url));

const classesIn = (css: string) =>
  new Set([...css.matchAll(/\.([A-Za-z][A-Za-z0-9_-]*)/g)].map((m) => m[1]!));

/**
 * The build drops the Bootstrap rules it finds no use for (scripts/trim-css.mjs), guessing from the
 * code's strings which classes react-bootstrap will build at run time. This walks every page, in
 * its states, at phone and desktop widths, and checks that each Bootstrap class on screen kept its
 * rules.
 */
describe.runIf(run)('the trimmed stylesheet in Chromium', { timeout: 180_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  let event: DemoEvent;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const admin = await new HttpClient(server.url).signIn(server.url, 'admin', true);
    await createSampleChallenges(admin, server.url);
    event = await populateEvent(server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('keeps the rules of every Bootstrap class the pages show', async () => {
    const require = createRequire(import.meta.url);
    const bootstrap = classesIn(
      readFileSync(require.resolve('bootstrap/dist/css/bootstrap.min.css'), 'utf8'),
    );
    const built = new Set<string>();
    for (const file of readdirSync(path.join(webDist, 'assets')).filter((f) => f.endsWith('.css'))) {
      for (const c of classesIn(readFileSync(path.join(webDist, 'assets', file), 'utf8'))) built.add(c);
    }
    expect(built.size).toBeGreaterThan(100);

    const challenge = (i: number) => `/challenge?id=${event.challenges[i]!._id}`;
    const clickEach = (selector: string) => async (p: Page) => {
      for (const el of await p.locator(selector).all()) {
        await el.click();
        await settle(p);
        await collect(p);
      }
    };
    const pages: [string | null, string, ((p: Page) => Promise<void>)?][] = [
      [null, '/', clickEach('.accordion-button')],
      [null, '/login'],
      [null, '/challenge_help'],
      [null, '/kali-setup-guide'],
      [null, '/no-such-page'],
      [event.users.solo, '/profile?mode=1'],
      [event.users.solo, '/compete'],
      [event.users.member, '/profile', clickEach('label[for="stats-team"]')],
      [event.users.member, '/profile?mode=1'],
      [event.users.member, '/compete'],
      [event.users.member, challenge(2)],
      [event.users.member, '/rate-challenge'],
      [event.users.member, '/leaderboard'],
      [event.users.leader, '/profile?mode=1'],
      ['admin', '/admin/panel', clickEach('[role="tab"]')],
    ];
    const seen = new Map<string, string>();
    let where = '';
    async function collect(p: Page) {
      const classes = await p.evaluate(() =>
        Array.from(document.querySelectorAll('*')).flatMap((el) => Array.from(el.classList)),
      );
      for (const c of classes) if (!seen.has(c)) seen.set(c, where);
    }
    for (const width of [375, 1280]) {
      for (const [user, pagePath, act] of pages) {
        where = `${user ?? 'visitor'} ${pagePath} at ${width}px`;
        const context = await browser.newContext({
          viewport: { width, height: 800 },
          reducedMotion: 'reduce',
        });
        if (user) await localSignIn(context, server.url, user, user === 'admin');
        const page = await context.newPage();
        await page.goto(`${server.url}${pagePath}`);
        await settle(page);
        await collect(page);
        const toggle = page.getByRole('button', { name: 'Toggle navigation' });
        if (await toggle.isVisible()) {
          await toggle.click();
          await settle(page);
          await collect(page);
        }
        if (act) await act(page);
        await context.close();
      }
    }
    const lost = [...seen]
      .filter(([c]) => bootstrap.has(c) && !built.has(c))
      .map(([c, at]) => `${c} (${at})`);
    expect([...seen.keys()].filter((c) => bootstrap.has(c)).length).toBeGreaterThan(100);
    expect(lost).toEqual([]);
  });
});
