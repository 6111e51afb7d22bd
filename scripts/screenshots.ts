/**
 * `npm run screenshots`: the README's screenshots, taken from the real product so they stay true.
 * Starts the built server with the demo event (the challenges of `npm run seed:demo`, two teams,
 * players, solves and ratings), opens each page in Chromium (playwright-core) at 1280x800 as the
 * right person, and writes docs/screenshots/<page>.png.
 *
 * Needs a build first (the npm script runs `npm run build`) and Chromium (CHROME_PATH or
 * /usr/bin/chromium).
 */
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { settle, trackRequests } from '../e2e/support/a11y.js';
import { chromiumPath, launchBrowser } from '../e2e/support/browser.js';
import { startDemoServer } from '../e2e/support/demo-event.js';
import { localSignIn } from '../e2e/support/session.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = path.join(root, 'docs/screenshots');
/** A moment inside the demo's event window, so the home page shows its countdown running. */
const DURING_EVENT = new Date('2025-10-16T14:30:00-04:00');

interface Shot {
  file: string;
  user: string | null;
  admin?: boolean;
  path: (challengeId: (name: string) => string) => string;
  /** Brings the page to the state worth showing. */
  prepare?: (page: Page) => Promise<void>;
  clock?: Date;
}

const SHOTS: Shot[] = [
  { file: 'home.png', user: null, path: () => '/', clock: DURING_EVENT },
  {
    file: 'compete.png',
    user: 'bob',
    path: () => '/compete',
    prepare: async (page) => {
      // Every challenge, solved or not, with the team's marks.
      await page.getByLabel('My Uncompleted').uncheck();
      await page.getByLabel('Team Uncompleted').uncheck();
    },
  },
  { file: 'challenge.png', user: 'bob', path: (id) => `/challenge?id=${id('View Source')}` },
  { file: 'team.png', user: 'alice', path: () => '/profile?mode=1' },
  {
    file: 'leaderboard.png',
    user: 'bob',
    path: () => '/leaderboard',
    // The score graph draws after the page's first paint (it marks its drawing in the timeline).
    prepare: async (page) => {
      await page.waitForFunction(() => performance.getEntriesByName('score graph drawn').length > 0);
    },
  },
  {
    file: 'admin.png',
    user: 'admin',
    admin: true,
    path: () => '/admin/panel',
    prepare: async (page) => {
      await page.getByRole('tab', { name: 'View Challenges' }).click();
      await page.getByTestId('admin-challenge-row').first().waitFor();
    },
  },
];

if (!chromiumPath()) {
  console.error('No Chromium at CHROME_PATH or /usr/bin/chromium (apt-get install chromium).');
  process.exit(1);
}
mkdirSync(outDir, { recursive: true });
const demo = await startDemoServer();
let browser: Browser | null = null;
try {
  browser = await launchBrowser();
  const id = (name: string) => {
    const found = demo.event.ids.get(name);
    if (!found) throw new Error(`no demo challenge named ${name}`);
    return found;
  };
  for (const shot of SHOTS) {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      deviceScaleFactor: 1,
      reducedMotion: 'reduce',
    });
    if (shot.user) await localSignIn(context, demo.server.url, shot.user, shot.admin === true);
    const page = trackRequests(await context.newPage());
    if (shot.clock) await page.clock.setFixedTime(shot.clock);
    await page.goto(`${demo.server.url}${shot.path(id)}`);
    await settle(page);
    if (shot.prepare) {
      await shot.prepare(page);
      await settle(page);
      // No focus ring left on whatever was clicked.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    }
    const file = path.join(outDir, shot.file);
    await page.screenshot({ path: file, type: 'png' });
    console.log(`docs/screenshots/${shot.file} (${Math.round(statSync(file).size / 1000)} kB)`);
    await context.close();
  }
} finally {
  await browser?.close();
  await demo.stop();
}
