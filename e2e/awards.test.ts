import { MESSAGES } from '@ctf/contract';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './support/a11y.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { localSignIn } from './support/session.js';

const run = browserAvailable();

/**
 * Awards (issue 31) in a real browser: an admin gives a player points in the panel's Awards tab,
 * the public leaderboard ranks the player with them, and the player's profile lists the award
 * with its reason; deleting it in the tab takes it off the board again.
 */
describe.runIf(run)('awards in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: BrowserContext;
  let ann: BrowserContext;
  let bob: BrowserContext;

  async function post(context: BrowserContext, path: string, data: unknown) {
    const res = await context.request.post(`${server.url}${path}`, { data, headers: { origin: server.url } });
    const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    if (!res.ok()) throw new Error(`${path} answered ${res.status()}: ${JSON.stringify(body)}`);
    return body;
  }

  /** The leaderboard's podium as shown: "#1 name N points" per entry. */
  async function podium(context: BrowserContext): Promise<string[]> {
    const page = await context.newPage();
    await page.goto(`${server.url}/leaderboard`);
    await page.getByTestId('podium-entry').first().waitFor();
    const shown = (await page.getByTestId('podium-entry').allInnerTexts()).map((t) =>
      t.replace(/\s+/g, ' ').trim(),
    );
    await page.close();
    return shown;
  }

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    // bypassCSP: the accessibility checker's script is injected into the pages.
    admin = await browser.newContext({ bypassCSP: true });
    await localSignIn(admin, server.url, 'organiser', true);
    ann = await browser.newContext();
    await localSignIn(ann, server.url, 'ann');
    bob = await browser.newContext({ bypassCSP: true });
    await localSignIn(bob, server.url, 'bob');
    await post(admin, '/api/admin/ctf/create_challenge', {
      name: 'Plain',
      description: 'x',
      category: 'General',
      difficulty: 'Easy',
      written_by: 'club',
      flag: 'flag{plain}',
      files: [],
    });
    await post(admin, '/api/admin/update_site_info', { activated: true });
    const list = (await (await admin.request.get(`${server.url}/api/admin/ctf/fetch_challenges`)).json()) as {
      _id: string;
    }[];
    const solved = await post(ann, '/api/ctf/submit-flag', {
      flag: 'flag{plain}',
      challenge_id: list[0]!._id,
    });
    expect(solved?.message).toBe(MESSAGES.correctFlag);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('gives an award in the Awards tab, ranks it on the leaderboard, lists it on the profile, and deletes it', async () => {
    expect(await podium(ann)).toEqual([expect.stringMatching(/ann.*100/)]);

    const page = await admin.newPage();
    await page.goto(`${server.url}/admin/panel`);
    await page.getByRole('tab', { name: 'Awards' }).click();
    const form = page.getByRole('form', { name: 'Give an award' });
    await form.getByLabel('User').selectOption({ label: 'bob' });
    await form.getByLabel('Points (negative for a penalty)').fill('250');
    await form.getByLabel('Reason (shown to the player)').fill('Best writeup');
    await form.getByRole('button', { name: 'Give award' }).click();
    await page.getByText('Award given').waitFor();
    const table = page.getByRole('table', { name: 'Awards' });
    await expect.poll(() => table.innerText()).toMatch(/bob[\s\S]*\+250[\s\S]*Best writeup/);
    expect(await seriousViolations(page)).toEqual([]);
    // At 375 px the tab fits the phone's width (the table scrolls inside its own box).
    await page.setViewportSize({ width: 375, height: 800 });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 800 });

    expect(await podium(ann)).toEqual([expect.stringMatching(/bob.*250/), expect.stringMatching(/ann.*100/)]);

    const profile = await bob.newPage();
    await profile.goto(`${server.url}/profile`);
    const awards = profile.getByRole('region', { name: 'Awards' });
    await expect.poll(() => awards.innerText()).toMatch(/\+250 points[\s\S]*Best writeup/);
    expect(await seriousViolations(profile)).toEqual([]);
    await profile.close();

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete award Best writeup to bob' }).click();
    // The last award gone, the tab says so instead of showing an empty table.
    await page.getByText('No awards yet.').waitFor();
    expect(await podium(ann)).toEqual([expect.stringMatching(/ann.*100/)]);
    await page.close();
  });
});
