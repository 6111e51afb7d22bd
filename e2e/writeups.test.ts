import { MESSAGES } from '@ctf/contract';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './support/a11y.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { localSignIn } from './support/session.js';

const run = browserAvailable();
const DAY = 86_400_000;

/**
 * Official solutions and writeups (issue 32) in a real browser: an admin opens collection in the
 * Settings tab; a player who solved two challenges hands in a Markdown file for one and a link
 * for the other; the admin reviews and publishes the file in the Writeups tab; once the event has
 * ended, another player sees the published writeup on the challenge page. Each solution shows per
 * its visibility: 'solved' to the solver at once, 'after_end' to everyone after the end only.
 */
describe.runIf(run)('solutions and writeups in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: BrowserContext;
  let ann: BrowserContext;
  let bob: BrowserContext;
  const ids: Record<'solved' | 'ended', string> = { solved: '', ended: '' };

  async function post(context: BrowserContext, path: string, data: unknown) {
    const res = await context.request.post(`${server.url}${path}`, { data, headers: { origin: server.url } });
    const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    if (!res.ok()) throw new Error(`${path} answered ${res.status()}: ${JSON.stringify(body)}`);
    return body;
  }

  async function challengePage(context: BrowserContext, id: string) {
    const page = await context.newPage();
    await page.goto(`${server.url}/challenge?id=${id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Flag' }).waitFor();
    return page;
  }

  beforeAll(async () => {
    const now = Date.now();
    // The window starts tomorrow (challenges are created before the event), then is moved to now.
    server = await startServer({
      EVENT_START: new Date(now + DAY).toISOString(),
      EVENT_END: new Date(now + 2 * DAY).toISOString(),
    });
    browser = await launchBrowser();
    // bypassCSP: the accessibility checker's script is injected into the pages.
    admin = await browser.newContext({ bypassCSP: true });
    await localSignIn(admin, server.url, 'organiser', true);
    ann = await browser.newContext({ bypassCSP: true });
    await localSignIn(ann, server.url, 'ann');
    bob = await browser.newContext({ bypassCSP: true });
    await localSignIn(bob, server.url, 'bob');
    for (const [key, visibility] of [
      ['solved', 'solved'],
      ['ended', 'after_end'],
    ] as const) {
      await post(admin, '/api/admin/ctf/create_challenge', {
        name: `Sol ${key}`,
        description: 'x',
        category: 'General',
        difficulty: 'Easy',
        written_by: 'club',
        flag: `flag{${key}}`,
        files: [],
        solution: { content: `Official answer for **${key}**.`, visibility },
      });
    }
    await post(admin, '/api/admin/update_site_info', { activated: true });
    await post(admin, '/api/admin/settings', {
      eventStart: new Date(now - DAY).toISOString(),
      eventEnd: new Date(now + DAY).toISOString(),
    });
    const list = (await (await admin.request.get(`${server.url}/api/admin/ctf/fetch_challenges`)).json()) as {
      _id: string;
      name: string;
    }[];
    ids.solved = list.find((c) => c.name === 'Sol solved')!._id;
    ids.ended = list.find((c) => c.name === 'Sol ended')!._id;
    for (const key of ['solved', 'ended'] as const) {
      const solved = await post(ann, '/api/ctf/submit-flag', {
        flag: `flag{${key}}`,
        challenge_id: ids[key],
      });
      expect(solved?.message).toBe(MESSAGES.correctFlag);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('collects, reviews and publishes writeups, and shows solutions per their visibility', async () => {
    // The admin opens collection with a note.
    const panel = await admin.newPage();
    await panel.goto(`${server.url}/admin/panel?tab=settings&section=writeups`);
    await panel.getByLabel('Collect writeups: players hand in one per challenge they solved').check();
    await panel.getByLabel('Writeup note to players').fill('Short and honest, please.');
    await panel.getByRole('button', { name: 'Save Settings' }).click();
    await expect
      .poll(async () => (await (await admin.request.get(`${server.url}/api/info/site`)).json()).writeups)
      .toEqual({ open: true, deadline: null, note: 'Short and honest, please.' });

    // Ann sees the 'solved' solution at once, hands in a Markdown file there and a link on the other.
    let page = await challengePage(ann, ids.solved);
    const solution = page.getByRole('region', { name: 'Solution' });
    await expect.poll(() => solution.innerText()).toMatch(/Official answer for solved/);
    let mine = page.getByRole('region', { name: 'Your writeup' });
    await expect.poll(() => mine.innerText()).toMatch(/Short and honest, please\./);
    await mine.getByLabel('A file').check();
    await mine.getByLabel('PDF or Markdown file (at most 5 MB)').setInputFiles({
      name: 'our writeup.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# How we did it\n\nWe read the source.\n'),
    });
    await mine.getByRole('button', { name: 'Hand in writeup' }).click();
    await mine.getByTestId('writeup-saved').waitFor();
    await expect.poll(() => mine.getByTestId('current-writeup').innerText()).toMatch(/our-writeup\.md/);
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(375);
    await page.close();

    page = await challengePage(ann, ids.ended);
    expect(await page.getByRole('region', { name: 'Solution' }).count()).toBe(0);
    mine = page.getByRole('region', { name: 'Your writeup' });
    await mine.getByLabel('Link to your writeup').fill('https://example.org/ann-ended');
    await mine.getByRole('button', { name: 'Hand in writeup' }).click();
    await mine.getByTestId('writeup-saved').waitFor();
    await page.close();

    // The admin reads the list, opens nothing unsafe, reviews and publishes the file.
    await panel.goto(`${server.url}/admin/panel?tab=writeups`);
    const table = panel.getByRole('table', { name: 'Writeups' });
    await expect.poll(() => table.getByTestId('writeup-row').count()).toBe(2);
    await expect.poll(() => table.innerText()).toMatch(/Sol ended[\s\S]*https:\/\/example\.org\/ann-ended/);
    const row = table.getByTestId('writeup-row').filter({ hasText: 'Sol solved' });
    await row.getByLabel('Reviewed').click();
    await expect.poll(() => row.getByLabel('Reviewed').isChecked()).toBe(true);
    await row.getByLabel('Published').click();
    await expect.poll(() => row.getByLabel('Published').isChecked()).toBe(true);
    const zip = panel.getByRole('link', { name: 'Download all (ZIP)' });
    expect(await zip.getAttribute('href')).toBe('/api/admin/writeups.zip');
    const open = row.getByRole('link', { name: /Open our-writeup\.md/ });
    const served = await admin.request.get(`${server.url}${await open.getAttribute('href')}`, {
      headers: {
        'sec-fetch-site': 'same-origin',
        'sec-fetch-mode': 'navigate',
        'sec-fetch-dest': 'document',
      },
    });
    expect(served.headers()['content-type']).toBe('text/plain; charset=utf-8');
    expect(served.headers()['content-security-policy']).toMatch(/^sandbox/);
    expect(await seriousViolations(panel)).toEqual([]);
    // At 375 px the tab fits the phone's width (the table scrolls inside its own box).
    await panel.setViewportSize({ width: 375, height: 800 });
    await expect
      .poll(() => panel.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(375);
    await panel.setViewportSize({ width: 1280, height: 800 });

    // Before the end Bob sees neither solution nor writeups; after it, the 'after_end' solution and
    // the published writeup (the 'solved' solution stays Ann's team's).
    page = await challengePage(bob, ids.solved);
    expect(await page.getByRole('region', { name: 'Writeups' }).count()).toBe(0);
    await page.close();
    const past = Date.now() - 1000;
    await post(admin, '/api/admin/settings', {
      eventStart: new Date(past - DAY).toISOString(),
      eventEnd: new Date(past).toISOString(),
    });
    page = await challengePage(bob, ids.solved);
    const published = page.getByRole('region', { name: 'Writeups' });
    await expect.poll(() => published.innerText()).toMatch(/ann: our-writeup\.md/);
    expect(await page.getByRole('region', { name: 'Solution' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Your writeup' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
    page = await challengePage(bob, ids.ended);
    await expect
      .poll(() => page.getByRole('region', { name: 'Solution' }).innerText())
      .toMatch(/Official answer for ended/);
    await page.close();

    // Ann's profile lists both, with their state.
    const profile = await ann.newPage();
    await profile.goto(`${server.url}/profile`);
    const list = profile.getByRole('region', { name: 'Writeups' });
    await expect.poll(() => list.innerText()).toMatch(/Sol solved: file[\s\S]*reviewed · published/);
    await expect.poll(() => list.innerText()).toMatch(/Sol ended: link[\s\S]*not reviewed yet/);
    await profile.close();
    await panel.close();
  });
});
