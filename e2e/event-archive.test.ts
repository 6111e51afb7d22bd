import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZipArchive } from '../server/src/modules/challenge-archive/archive-reader.js';
import { seriousViolations } from './support/a11y.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import {
  SAMPLE_CHALLENGES,
  createSampleChallenges,
  populateEvent,
  type DemoEvent,
} from './support/demo-event.js';
import { HttpClient } from './support/http.js';
import { startServer, type RunningServer } from './support/server.js';

const run = browserAvailable();

/**
 * Issue 32: the event's static archive, downloaded as the admin panel's link does, unpacked and
 * opened from the file system in Chromium: the winner and every released challenge are there, no
 * page asks any server for anything, and every kind of page passes axe.
 */
describe.runIf(run)('the static archive opened from file:// in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let event: DemoEvent;
  let dir: string;
  let winner: string;
  const requests: string[] = [];
  const url = (p: string) => pathToFileURL(path.join(dir, p)).href;

  beforeAll(async () => {
    server = await startServer();
    const admin = await new HttpClient(server.url).signIn(server.url, 'admin', true);
    await createSampleChallenges(admin, server.url);
    event = await populateEvent(server);
    const said = await event.admin.post(server.url, '/api/admin/announcements/create', {
      title: 'The event is over',
      body: 'Thanks for playing! Results are **final**.',
      pinned: true,
    });
    expect(said.status).toBe(200);
    // A solution shown after the end, and a published writeup (a link), on the first challenge.
    const first = event.challenges[0]!;
    const sample = SAMPLE_CHALLENGES.find((c) => c.name === first.name)!;
    const solved = await event.admin.post(server.url, '/api/admin/ctf/update_challenge', {
      ...sample,
      challenge_id: first._id,
      flag: first.flag,
      solution: { content: 'Read the **description**.', visibility: 'after_end' },
    });
    expect(solved.status, solved.text).toBe(200);
    const collection = { writeups: { open: true, deadline: null, note: '' } };
    expect((await event.admin.post(server.url, '/api/admin/settings', collection)).status).toBe(200);
    const form = new FormData();
    form.append('challenge_id', first._id);
    form.append('url', 'https://blog.example/welcome');
    const erin = await new HttpClient(server.url).signIn(server.url, event.users.solo);
    const handed = await fetch(`${server.url}/api/ctf/writeup`, {
      method: 'POST',
      body: form,
      headers: { origin: server.url, cookie: erin.cookie },
    });
    expect(handed.status).toBe(200);
    const id = ((await handed.json()) as { _id: string })._id;
    const published = await event.admin.post(server.url, '/api/admin/writeups/review', {
      writeup_id: id,
      reviewed: true,
      published: true,
    });
    expect(published.status, published.text).toBe(200);
    winner = (await event.admin.get(server.url, '/api/info/leaderboard')).body[0].name;
    // As the browser follows the panel's link: a top-level navigation.
    const res = await fetch(`${server.url}/api/admin/archive.zip`, {
      headers: {
        cookie: event.admin.cookie,
        'sec-fetch-site': 'same-origin',
        'sec-fetch-mode': 'navigate',
        'sec-fetch-dest': 'document',
      },
    });
    expect(res.status).toBe(200);
    const entries = await readZipArchive(Buffer.from(await res.arrayBuffer()), 'archive.zip');
    dir = mkdtempSync(path.join(tmpdir(), 'ctf-archive-e2e-'));
    for (const [name, bytes] of entries) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), bytes);
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A page of the archive, its every request recorded. */
  async function open(p: string, options: { bypassCSP?: boolean } = {}): Promise<Page> {
    const context = await browser.newContext({ bypassCSP: options.bypassCSP ?? true });
    const page = await context.newPage();
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(url(p));
    return page;
  }

  it('names the winner on the home page, styled by its own style sheet under its CSP', async () => {
    const page = await open('index.html', { bypassCSP: false });
    await expect.poll(() => page.locator('main .winners').textContent()).toContain(`Winner: ${winner}`);
    expect(await page.title()).toContain('Home');
    expect(await page.locator('figure.graph svg[role="img"]').count()).toBe(1);
    // style.css applied: the header's rule, not the browser's default.
    const border = await page.locator('header').evaluate((e) => getComputedStyle(e).borderBottomStyle);
    expect(border).toBe('solid');
    await page.getByRole('link', { name: /The full scoreboard/ }).click();
    await expect.poll(() => page.locator('main table th[scope="row"]').first().textContent()).toBe(winner);
    await page.context().close();
  });

  it('lists every released challenge, each page reachable by its link, and no disabled one', async () => {
    const page = await open('challenges/index.html');
    const released = event.challenges.filter((c) => c.name !== event.inactive);
    for (const c of released)
      expect(await page.getByRole('link', { name: c.name, exact: true }).count()).toBe(1);
    expect(await page.getByText(event.inactive).count()).toBe(0);
    for (const c of released) {
      await page.goto(url('challenges/index.html'));
      await page.getByRole('link', { name: c.name, exact: true }).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe(c.name);
      expect(await page.content()).not.toContain(c.flag.replace(/^flag\{|\}$/g, ''));
    }
    await page.context().close();
  });

  it('passes axe on every kind of page and asks no server for anything', async () => {
    const viewSource = event.challenges.find((c) => c.name === 'View Source')!;
    const challengePage = `challenges/${viewSource._id}-view-source.html`;
    const first = event.challenges[0]!;
    const withWriteup = `challenges/${first._id}-${first.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.html`;
    for (const p of [
      'index.html',
      'scoreboard.html',
      'challenges/index.html',
      challengePage,
      withWriteup,
      'announcements.html',
    ]) {
      const page = await open(p);
      expect(await page.locator('main h1').count(), p).toBe(1);
      expect(await seriousViolations(page), p).toEqual([]);
      await page.context().close();
    }
    const solvedPage = await open(withWriteup);
    expect(await solvedPage.getByRole('heading', { name: 'Solution' }).count()).toBe(1);
    expect(await solvedPage.locator('main').textContent()).toContain('Read the description.');
    const writeup = solvedPage.getByRole('link', { name: 'https://blog.example/welcome' });
    expect(await writeup.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    await solvedPage.context().close();
    const page = await open(challengePage);
    const file = page.getByRole('link', { name: 'view-source.zip' });
    expect(await file.getAttribute('href')).toBe('../files/view-source.zip');
    await page.context().close();
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((r) => !r.startsWith('file://'))).toEqual([]);
  });
});
