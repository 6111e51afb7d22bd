import { MESSAGES } from '@ctf/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { localSignIn } from './support/session.js';

const run = browserAvailable();

/**
 * Issue 16 in a real browser: a dynamic challenge's points fall on a player's open Compete page as
 * others solve it; the leaderboard page draws the score graph; an admin sets a freeze in the panel
 * and a later solve does not move the public leaderboard, while its solver sees it as solved.
 */
describe.runIf(run)('scoring in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: BrowserContext;
  const players: Record<string, BrowserContext> = {};
  const ids: Record<string, string> = {};

  async function post(context: BrowserContext, path: string, data: unknown) {
    const res = await context.request.post(`${server.url}${path}`, { data, headers: { origin: server.url } });
    const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    if (!res.ok()) throw new Error(`${path} answered ${res.status()}: ${JSON.stringify(body)}`);
    return body;
  }

  async function solve(name: string, challenge: string) {
    const body = await post(players[name]!, '/api/ctf/submit-flag', {
      flag: `flag{${challenge.toLowerCase()}}`,
      challenge_id: ids[challenge],
    });
    expect(body?.message).toBe(MESSAGES.correctFlag);
  }

  const card = (page: Page, name: string) =>
    page.getByTestId('challenge-card').filter({ has: page.getByRole('heading', { name }) });

  /** The podium as shown: "#1 name N points" per entry. */
  async function podium(page: Page): Promise<string[]> {
    return (await page.getByTestId('podium-entry').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  }

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    admin = await browser.newContext();
    await localSignIn(admin, server.url, 'scorekeeper', true);
    for (const name of ['ann', 'bob', 'cat']) {
      players[name] = await browser.newContext();
      await localSignIn(players[name]!, server.url, name);
    }
    const common = { description: 'x', category: 'General', written_by: 'club', files: [] };
    await post(admin, '/api/admin/ctf/create_challenge', {
      ...common,
      name: 'Dynamo',
      difficulty: 'Hard',
      flag: 'flag{dynamo}',
      scoring: { type: 'dynamic', function: 'linear', initial: 500, minimum: 100, decay: 100 },
    });
    await post(admin, '/api/admin/ctf/create_challenge', {
      ...common,
      name: 'Plain',
      difficulty: 'Easy',
      flag: 'flag{plain}',
    });
    const list = await (await admin.request.get(`${server.url}/api/admin/ctf/fetch_challenges`)).json();
    for (const c of list as { _id: string; name: string }[]) ids[c.name] = c._id;
    await post(admin, '/api/admin/update_site_info', { activated: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("drops a dynamic challenge's points on an open Compete page as others solve it", async () => {
    const page = await players.ann!.newPage();
    const streamOpen = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events');
    await page.goto(`${server.url}/compete`);
    expect((await streamOpen).status()).toBe(200);
    const dynamo = card(page, 'Dynamo');
    await expect.poll(() => dynamo.innerText()).toMatch(/Points: 500/);
    await expect.poll(() => dynamo.innerText()).toMatch(/dynamic/i);

    await solve('ann', 'Dynamo');
    await expect.poll(() => dynamo.innerText()).toMatch(/Solves: 1/);
    // Each solve by another competitor lowers it by 100, for every solver (ann included).
    await solve('bob', 'Dynamo');
    await expect.poll(() => dynamo.innerText()).toMatch(/Points: 400/);
    await solve('cat', 'Dynamo');
    await expect.poll(() => dynamo.innerText()).toMatch(/Points: 300/);
    expect(await dynamo.innerText()).toMatch(/Solves: 3/);
    await page.close();
  });

  it('draws the score graph on the leaderboard page: a canvas line a competitor, nothing below moving', async () => {
    const page = await players.bob!.newPage();
    // Every layout shift since the load began (what Lighthouse's cumulative layout shift adds up).
    await page.addInitScript(() => {
      const w = window as unknown as { shifts: number };
      w.shifts = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
        })[])
          if (!e.hadRecentInput) w.shifts += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(`${server.url}/leaderboard`);
    const chart = page.getByTestId('score-graph-chart');
    const canvas = chart.locator('canvas');
    await canvas.waitFor();
    const box = await canvas.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(100);
    expect(box?.height ?? 0).toBeGreaterThan(100);
    // The legend names the three competitors; each one's line is drawn in its legend colour.
    const legend = chart.locator('li');
    expect((await legend.allTextContents()).sort()).toEqual(['ann', 'bob', 'cat']);
    const colours = await legend.evaluateAll((items) =>
      items.map((li) => getComputedStyle(li.firstElementChild!).backgroundColor),
    );
    await expect
      .poll(() =>
        canvas.evaluate((c: HTMLCanvasElement, wanted: string[]) => {
          const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
          const counts = wanted.map(() => 0);
          const rgb = wanted.map((w) => w.match(/\d+/g)!.map(Number));
          for (let i = 0; i < data.length; i += 4)
            rgb.forEach(([r, g, b], k) => {
              if (data[i] === r && data[i + 1] === g && data[i + 2] === b) counts[k]!++;
            });
          return counts.every((n) => n >= 20);
        }, colours),
      )
      .toBe(true);
    // The tooltip: everyone's score at the pointer's time (the end of the axis: 300 each).
    const over = chart.locator('.u-over');
    const plot = (await over.boundingBox())!;
    await over.hover({ position: { x: plot.width - 2, y: plot.height / 2 } });
    const tip = chart.locator('.score-graph-tip');
    await expect.poll(() => tip.isVisible()).toBe(true);
    expect(await tip.innerText()).toMatch(/ann: 300/);
    expect(await tip.innerText()).toMatch(/bob: 300/);
    expect(await tip.innerText()).toMatch(/cat: 300/);
    // Drawn into the space kept for it: the page did not move.
    expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBeLessThan(0.02);
    // The same data as a table, made when opened.
    await page.getByText('Score graph as a table').click();
    await expect.poll(() => page.getByTestId('score-graph-table').locator('tbody tr').count()).toBe(3);
    await page.close();
  });

  it("draws a long event's graph: ten competitors of 200 steps each, their tooltip and their table", async () => {
    const page = await players.bob!.newPage();
    // The top 10 after six days of a big event (the board's own answer has three competitors).
    const start = Date.parse('2025-10-15T01:00:00Z');
    const series = Array.from({ length: 10 }, (_, k) => ({
      name: `competitor${k + 1}`,
      points: Array.from({ length: 200 }, (_, j) => ({
        time: new Date(start + j * 2_500_000 + k * 60_000).toISOString(),
        score: (j + 1) * (100 - 7 * k),
      })),
    }));
    await page.route('**/api/info/scoreboard/graph?*', (route) =>
      route.fulfill({ json: { series, frozen_at: null } }),
    );
    await page.goto(`${server.url}/leaderboard`);
    const chart = page.getByTestId('score-graph-chart');
    await expect.poll(() => page.getByRole('heading', { name: 'Top 10 over time' }).count()).toBe(1);
    // Drawn (the chart marks its drawing in the performance timeline), every line in its colour.
    await expect
      .poll(() => page.evaluate(() => performance.getEntriesByName('score graph drawn').length))
      .toBe(1);
    const colours = await chart
      .locator('li')
      .evaluateAll((items) => items.map((li) => getComputedStyle(li.firstElementChild!).backgroundColor));
    expect(colours).toHaveLength(10);
    const drawn = await chart.locator('canvas').evaluate((c: HTMLCanvasElement, wanted: string[]) => {
      const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
      const rgb = wanted.map((w) => w.match(/\d+/g)!.map(Number));
      const counts = wanted.map(() => 0);
      for (let i = 0; i < data.length; i += 4)
        rgb.forEach(([r, g, b], k) => {
          if (data[i] === r && data[i + 1] === g && data[i + 2] === b) counts[k]!++;
        });
      return counts;
    }, colours);
    for (const n of drawn) expect(n).toBeGreaterThanOrEqual(20);
    // Everyone's final score in the tooltip at the end of the axis.
    const over = chart.locator('.u-over');
    const plot = (await over.boundingBox())!;
    await over.hover({ position: { x: plot.width - 1, y: plot.height / 2 } });
    const tip = chart.locator('.score-graph-tip');
    await expect.poll(() => tip.isVisible()).toBe(true);
    const text = await tip.innerText();
    for (const [k, s] of series.entries()) expect(text).toContain(`${s.name}: ${200 * (100 - 7 * k)}`);
    // The table, made when opened: one row a step.
    await page.getByText('Score graph as a table').click();
    await expect.poll(() => page.getByTestId('score-graph-table').locator('tbody tr').count()).toBe(2000);
    await page.close();
  });

  it('keeps the public leaderboard still after a freeze set in the admin panel; the solver sees the solve', async () => {
    const panel = await admin.newPage();
    await panel.goto(`${server.url}/admin/panel`);
    // The freeze at the next whole minute (the panel's field has minutes), then waited for.
    const next = await panel.evaluate(() => {
      const d = new Date();
      d.setSeconds(0, 0);
      d.setMinutes(d.getMinutes() + 1);
      const pad = (n: number) => String(n).padStart(2, '0');
      return {
        local: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`,
        ms: d.getTime(),
      };
    });
    await panel.getByLabel('Freeze time').fill(next.local);
    await panel.getByRole('button', { name: 'Set freeze' }).click();
    await expect.poll(() => panel.getByTestId('freeze-status').innerText()).toMatch(/(Freezes|Frozen) at/);
    await expect.poll(() => Date.now() > next.ms + 500, { timeout: 75_000, interval: 250 }).toBe(true);

    const publicPage = await players.bob!.newPage();
    await publicPage.goto(`${server.url}/leaderboard`);
    await expect.poll(() => publicPage.getByTestId('freeze-banner').isVisible()).toBe(true);
    const before = await podium(publicPage);
    expect(before).toHaveLength(3);

    // After the freeze ann solves Plain (100 more points): only the live board moves.
    await solve('ann', 'Plain');
    const compete = await players.ann!.newPage();
    await compete.goto(`${server.url}/compete`);
    // The Compete page lists unsolved challenges by default: ask for the solved ones too.
    await compete.getByLabel('My Completed').check();
    await expect.poll(() => card(compete, 'Plain').innerText()).toMatch(/Solved/);

    const live = await admin.newPage();
    await live.goto(`${server.url}/leaderboard`);
    await expect.poll(() => live.getByTestId('freeze-banner').innerText()).toMatch(/Live board/);
    await expect.poll(async () => (await podium(live))[0]).toMatch(/#1 ann 400 points/);

    await publicPage.reload();
    await expect.poll(() => publicPage.getByTestId('podium-entry').count()).toBe(3);
    expect(await podium(publicPage)).toEqual(before);
    expect(before.join(' ')).not.toMatch(/400 points/);
    for (const p of [panel, publicPage, compete, live]) await p.close();
  }, 180_000);
});
