import { LEADERBOARD_PAGE } from '@ctf/contract';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEvent } from '../bench/seed.js';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

const run = browserAvailable();
const SECRET = 'e2e-scale-secret-e2e-scale-secret-0123456789';

/**
 * Issue 20 in a real browser: a board of more than 5,000 competitors (the benchmark's seed
 * generator, every player solo) shows its podium, keeps only a window of rows in the DOM, and
 * "My position" scrolls to the caller's row and highlights it.
 */
describe.runIf(run)('a 5,000-competitor leaderboard in Chromium', { timeout: 120_000 }, () => {
  let dataDir: string;
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let competitors = 0;
  let rank = 0;
  let token = '';
  let flags = new Map<number, string>();

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'ctf-e2e-scale-'));
    const env = { DATA_DIR: dataDir, SESSION_SECRET: SECRET, LOG_LEVEL: 'silent' };
    const { app, ctx } = await buildApp(loadConfig(env), { logger: false });
    // 20,000 solves over 5,200 players: all but ~2% of them score.
    const event = await seedEvent(ctx, {
      users: 5200,
      teams: 0,
      challenges: 12,
      solves: 20_000,
      files: 0,
      sessions: 8,
    });
    await app.close();
    server = await startServer({ DATA_DIR: dataDir, SESSION_SECRET: SECRET });
    flags = event.flags;
    // A player well down the board (the seeded sessions belong to random players).
    for (const s of event.sessions) {
      const res = await fetch(`${server.url}/api/info/leaderboard?around=me&limit=1`, {
        headers: { cookie: `ctf_session=${s.token}` },
      });
      await res.arrayBuffer();
      competitors = Number(res.headers.get(LEADERBOARD_PAGE.totalHeader));
      const r = Number(res.headers.get(LEADERBOARD_PAGE.callerRankHeader) ?? 0);
      if (r > 100 && r > rank) {
        rank = r;
        token = s.token;
      }
    }
    expect(token, 'a seeded player down the board').not.toBe('');
    browser = await launchBrowser();
    context = await browser.newContext({ reducedMotion: 'reduce' });
    await context.addCookies([{ name: 'ctf_session', value: token, url: server.url }]);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows the podium, scrolls to and highlights the caller on "My position", with a window of rows in the DOM', async () => {
    expect(competitors).toBeGreaterThan(5000);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${server.url}/leaderboard`);

    const podium = page.getByRole('region', { name: 'Podium' });
    await expect.poll(() => podium.getByTestId('podium-entry').count()).toBe(3);
    expect(await podium.getByTestId('podium-entry').allInnerTexts()).toEqual([
      expect.stringMatching(/^#1\s/),
      expect.stringMatching(/^#2\s/),
      expect.stringMatching(/^#3\s/),
    ]);
    const colours = await podium
      .getByTestId('podium-badge')
      .evaluateAll((els) => els.map((e) => Array.from(e.classList).find((c) => c.startsWith('bg-'))));
    expect(colours).toEqual(['bg-warning', 'bg-secondary', 'bg-info']);
    await expect.poll(() => page.getByTestId('leaderboard-entry').first().innerText()).toMatch(/^#1\s/);

    await page.getByRole('button', { name: 'My position' }).click();
    const mine = page.locator('[data-testid="leaderboard-entry"][aria-current="true"]');
    await mine.waitFor();
    expect(await mine.innerText()).toMatch(new RegExp(`^#${rank}\\s`));
    expect(await mine.getAttribute('class')).toContain('leaderboard-me');
    expect(await page.getByTestId('position-note').innerText()).toBe(`Your position: #${rank}.`);
    // Scrolled into the list's view.
    await expect
      .poll(() =>
        mine.evaluate((row) => {
          const list = row.closest('.leaderboard-list')!.getBoundingClientRect();
          const r = row.getBoundingClientRect();
          return r.top >= list.top - 1 && r.bottom <= list.bottom + 1;
        }),
      )
      .toBe(true);

    // A window of rows, not the board: every list item on the page, podium included.
    const items = await page.locator('li').count();
    expect(items).toBeGreaterThan(5);
    expect(items).toBeLessThan(300);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('refreshes only the rows on screen when the board changes, and the highlight follows the caller', async () => {
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/info/leaderboard')) asked.push(new URL(r.url()).search);
    });
    await page.goto(`${server.url}/leaderboard`);
    await page.getByRole('button', { name: 'My position' }).click();
    const mine = page.locator('[data-testid="leaderboard-entry"][aria-current="true"]');
    await mine.waitFor();
    const at = Number(/^#(\d+)/.exec(await mine.innerText())![1]);
    const row = page.locator(`[data-testid="leaderboard-entry"][aria-posinset="${at}"]`);
    const before = await row.innerText();
    asked.length = 0;

    // The caller solves one more challenge (as from another tab): they move up the board.
    let solved = false;
    for (const [id, flag] of flags) {
      const res = await fetch(`${server.url}/api/ctf/submit-flag`, {
        method: 'POST',
        headers: { cookie: `ctf_session=${token}`, origin: server.url, 'content-type': 'application/json' },
        body: JSON.stringify({ flag, challenge_id: String(id) }),
      });
      if (((await res.json()) as { message: string }).message === 'Correct Flag!') {
        solved = true;
        break;
      }
    }
    expect(solved).toBe(true);

    // The live stream's change reaches the page, which asks again for its shown pages only.
    await expect.poll(() => row.innerText()).not.toBe(before);
    const page0 = Math.floor((at - 1) / 50) * 50;
    const shown = new Set([0, page0 - 50, page0, page0 + 50].map((o) => `?limit=50&offset=${o}`));
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.length).toBeLessThanOrEqual(4);
    for (const search of asked) expect(shown, search).toContain(search);
    // The highlight left the row the caller no longer holds.
    await expect.poll(() => row.getAttribute('aria-current')).toBeNull();
    await page.close();
  });
});
