import { CATEGORIES, DIFFICULTIES, MESSAGES, PIE_CHART, UI_TEXT } from '@ctf/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { localSignIn } from './support/session.js';

const run = browserAvailable();

/** 45 challenges spread over every category, difficulty and two authors. */
const CHALLENGE_COUNT = 45;
const pad = (i: number) => String(i).padStart(2, '0');
const challengeData = Array.from({ length: CHALLENGE_COUNT }, (_, k) => {
  const i = k + 1;
  return {
    i,
    name: `Challenge ${pad(i)}`,
    description: `<p>Challenge <b>${i}</b> asks you to find the flag.</p>`,
    category: CATEGORIES[i % CATEGORIES.length]!,
    difficulty: DIFFICULTIES[i % DIFFICULTIES.length]!,
    written_by: i % 4 === 0 ? 'Zed Author' : 'Amy Author',
    flag: `flag{c${pad(i)}}`,
  };
});
const byNumber = (i: number) => challengeData[i - 1]!;
const INACTIVE = 45;

describe.runIf(run)('compete in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: BrowserContext;
  const ids = new Map<string, string>();
  const contexts: Record<string, BrowserContext> = {};

  async function post(context: BrowserContext, path: string, data: unknown) {
    const res = await context.request.post(`${server.url}${path}`, { data, headers: { origin: server.url } });
    const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    if (!res.ok()) throw new Error(`${path} answered ${res.status()}: ${JSON.stringify(body)}`);
    return body;
  }

  async function participant(name: string): Promise<BrowserContext> {
    const context = await browser.newContext();
    await localSignIn(context, server.url, name);
    contexts[name] = context;
    return context;
  }

  async function solveByApi(context: BrowserContext, i: number) {
    const body = await post(context, '/api/ctf/submit-flag', {
      flag: byNumber(i).flag,
      challenge_id: ids.get(byNumber(i).name),
    });
    expect(body?.message).toBe(MESSAGES.correctFlag);
  }

  /** A page that records console errors and failed responses, so a test can demand none. */
  async function openPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
    return { page, errors };
  }

  const cards = (page: Page) => page.getByTestId('challenge-card');
  const indicator = (page: Page) => page.getByTestId('page-indicator').textContent();

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    admin = await browser.newContext();
    await localSignIn(admin, server.url, 'admin', true);
    for (const c of challengeData) {
      const { i: _i, ...input } = c;
      const body = await post(admin, '/api/admin/ctf/create_challenge', input);
      expect(body?.acknowledge).toBe(true);
    }
    const listed = (await (
      await admin.request.get(`${server.url}/api/admin/ctf/fetch_challenges`)
    ).json()) as {
      _id: string;
      name: string;
    }[];
    for (const c of listed) ids.set(c.name, c._id);
    expect(ids.size).toBe(CHALLENGE_COUNT);
    await post(admin, '/api/admin/ctf/toggle_status', { challenge_id: ids.get(byNumber(INACTIVE).name) });
  });

  afterAll(async () => {
    for (const c of Object.values(contexts)) await c.close();
    await admin?.close();
    await browser?.close();
    await server?.stop();
  });

  it("shows the server's message on /compete while the site is inactive", async () => {
    const context = await participant('carol');
    const { page, errors } = await openPage(context);
    await page.goto(`${server.url}/compete`);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(MESSAGES.siteInactive);
    expect(await page.getByLabel('Search').count()).toBe(0);
    // The closed state is read from the public site info: no refused request, no console error.
    expect(errors).toEqual([]);
    await page.close();
    await post(admin, '/api/admin/update_site_info', { activated: true });
  });

  it('filters and pages through the challenges (a participant on no team)', async () => {
    const { page, errors } = await openPage(contexts.carol!);
    await page.goto(`${server.url}/compete`);
    await expect.poll(() => indicator(page)).toBe('Page 1 of 3');
    expect(await cards(page).count()).toBe(20);
    expect(await page.getByLabel('My Uncompleted').isChecked()).toBe(true);
    expect(await page.getByLabel('My Completed').isChecked()).toBe(false);
    expect(await page.getByLabel('Team Completed').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Prev' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => indicator(page)).toBe('Page 2 of 3');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => indicator(page)).toBe('Page 3 of 3');
    expect(await cards(page).count()).toBe(5);
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

    // Any filter change returns to page 1.
    const crypto = challengeData.filter((c) => c.category === 'Cryptography');
    await page.getByLabel('Category').selectOption('Cryptography');
    await expect.poll(() => indicator(page)).toBe('Page 1 of 1');
    expect(await cards(page).count()).toBe(crypto.length);
    await page.getByLabel('Difficulty').selectOption('Hard');
    await expect.poll(() => cards(page).count()).toBe(crypto.filter((c) => c.difficulty === 'Hard').length);
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await expect.poll(() => indicator(page)).toBe('Page 1 of 3');
    expect(await page.getByLabel('Category').inputValue()).toBe('');

    const zed = challengeData.filter((c) => c.written_by === 'Zed Author').length;
    await page.getByLabel('Search').fill('ZED');
    await expect.poll(() => cards(page).count()).toBe(zed);
    await page.getByLabel('Search').fill('');
    await page.getByLabel('Author').selectOption('Zed Author');
    await expect.poll(() => cards(page).count()).toBe(zed);
    await page.getByLabel('Minimum rating').selectOption('4');
    await expect.poll(() => page.getByText(UI_TEXT.noChallenges).count()).toBe(1);
    expect(await page.getByText(UI_TEXT.adjustFilters).count()).toBe(1);
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await expect.poll(() => indicator(page)).toBe('Page 1 of 3');

    // The inactive challenge is dimmed, not linked, and says so.
    await page.getByLabel('Search').fill(byNumber(INACTIVE).name);
    await expect.poll(() => cards(page).count()).toBe(1);
    const inactive = cards(page).first();
    expect(await inactive.getAttribute('class')).toContain('inactive');
    expect(await inactive.getByRole('link').count()).toBe(0);
    expect(await inactive.textContent()).toContain(MESSAGES.challengeInactive);
    expect(Number(await inactive.evaluate((el) => getComputedStyle(el).opacity))).toBeLessThan(1);

    expect(errors).toEqual([]);
    await page.close();
  });

  it('reflows the cards on a 375px-wide phone', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
    await localSignIn(context, server.url, 'carol');
    const page = await context.newPage();
    await page.goto(`${server.url}/compete`);
    await expect.poll(() => cards(page).count()).toBe(20);
    const first = (await cards(page).nth(0).boundingBox())!;
    const second = (await cards(page).nth(1).boundingBox())!;
    expect(first.width).toBeLessThanOrEqual(375);
    expect(second.y).toBeGreaterThan(first.y + first.height - 1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await context.close();
  });

  it('forms a team of two (alice leads, bob joins through a request)', async () => {
    const alice = await participant('alice');
    const bob = await participant('bob');
    await post(alice, '/api/team/create', { team_name: 'Red Team' });
    await post(bob, '/api/team/request', { team_name: 'Red Team' });
    const team = (await (await alice.request.get(`${server.url}/api/team/info`)).json()) as {
      join_requests: { _id: string; checksum: string }[];
    };
    expect(team.join_requests).toHaveLength(1);
    const [request] = team.join_requests;
    await post(alice, '/api/team/add-member', { request_id: request!._id, checksum: request!.checksum });
    const info = (await (await bob.request.get(`${server.url}/api/user/info`)).json()) as { team: string };
    expect(info.team).toBe('Red Team');
  });

  it('solves a challenge: alerts, the rating prompt, the thank-you panel and the card state', async () => {
    const { page, errors } = await openPage(contexts.alice!);
    const target = byNumber(7);
    await page.goto(`${server.url}/compete`);
    await expect.poll(() => indicator(page)).toBe('Page 1 of 3');
    expect(await page.getByLabel('Team Uncompleted').isChecked()).toBe(true);
    expect(await page.getByLabel('Team Completed').isChecked()).toBe(false);
    await page.getByLabel('Search').fill(target.name);
    await expect.poll(() => cards(page).count()).toBe(1);
    expect(await cards(page).first().textContent()).toContain('Team not completed');
    await page.getByRole('link', { name: target.name }).click();
    await page.waitForURL(`${server.url}/challenge?id=${ids.get(target.name)}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(target.name);
    expect(await page.getByTestId('challenge-description').innerHTML()).toContain('<b>7</b>');

    const flagAlert = page.getByTestId('flag-message').getByRole('alert');
    await page.getByLabel('Flag', { exact: true }).fill('flag{wrong}');
    await page.getByRole('button', { name: 'Submit Flag' }).click();
    await expect.poll(() => flagAlert.textContent()).toBe(MESSAGES.incorrectFlag);
    expect(await flagAlert.getAttribute('class')).toContain('alert-danger');
    expect(await page.getByText('How would you rate this challenge?').count()).toBe(0);

    await page.getByLabel('Flag', { exact: true }).fill(target.flag);
    await page.getByRole('button', { name: 'Submit Flag' }).click();
    await expect.poll(() => flagAlert.textContent()).toBe(MESSAGES.correctFlag);
    expect(await flagAlert.getAttribute('class')).toContain('alert-info');
    await expect.poll(() => page.getByText('How would you rate this challenge?').count()).toBe(1);
    await expect.poll(() => page.getByText('Team completed').count()).toBe(1);

    const ratingAlert = page.getByTestId('rating-message').getByRole('alert');
    await page.getByRole('button', { name: 'Submit Rating' }).click();
    await expect.poll(() => ratingAlert.textContent()).toBe(UI_TEXT.selectRating);
    await page.getByLabel('4 Very Good').check();
    await page.getByRole('button', { name: 'Submit Rating' }).click();
    await expect.poll(() => page.getByTestId('rating-thanks').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Submit Rating' }).count()).toBe(0);
    await expect.poll(() => page.getByText('4.0 / 5').count()).toBe(1);

    // Back on the list the solved challenge is hidden by default, and shown as solved on request.
    await page.getByRole('link', { name: 'Back to challenges' }).click();
    await page.waitForURL(`${server.url}/compete`);
    await page.getByLabel('Search').fill(target.name);
    await expect.poll(() => page.getByText(UI_TEXT.noChallenges).count()).toBe(1);
    await page.getByLabel('My Completed').check();
    await page.getByLabel('Team Completed').check();
    await expect.poll(() => cards(page).count()).toBe(1);
    const card = cards(page).first();
    const text = await card.textContent();
    expect(text).toContain('Solved');
    expect(text).toContain('Team completed');
    expect(text).toContain('Rating: 4.0 / 5');
    expect(text).toContain('Solves: 1');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('rates a solved challenge on the rate-challenge page', async () => {
    const alice = contexts.alice!;
    await solveByApi(alice, 1);
    const { page, errors } = await openPage(alice);
    await page.goto(`${server.url}/rate-challenge`);
    const name = byNumber(1).name;
    await expect.poll(() => page.getByRole('heading', { name }).count()).toBe(1);
    // The challenge rated on its own page is not offered again.
    expect(await page.getByRole('heading', { name: byNumber(7).name }).count()).toBe(0);
    await page.getByLabel(`Rating for ${name}`).selectOption('5');
    await page.getByRole('button', { name: `Rate ${name}` }).click();
    await expect.poll(() => page.getByRole('heading', { name }).count()).toBe(0);
    const alert = page.getByTestId('rate-message').getByRole('alert');
    expect(await alert.getAttribute('class')).toContain('alert-success');
    expect(await page.getByText(/no solved challenges waiting for a rating/).count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('orders the leaderboard with badges for the top 3, and searches it', async () => {
    await solveByApi(contexts.bob!, 4); // Extreme 400: Red Team = 200 + 100 + 400
    await solveByApi(contexts.carol!, 3); // Hard 300
    const dave = await participant('dave');
    await solveByApi(dave, 5); // Simple 50
    const { page, errors } = await openPage(contexts.carol!);
    await page.goto(`${server.url}/leaderboard`);
    const rows = page.getByTestId('leaderboard-entry');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.allTextContents()).toEqual([
      '#1Red Team700 points',
      '#2carol300 points',
      '#3dave50 points',
    ]);
    const badges = await page
      .getByTestId('points-badge')
      .evaluateAll((els) => els.map((e) => Array.from(e.classList).find((c) => c.startsWith('bg-'))));
    expect(badges).toEqual(['bg-warning', 'bg-secondary', 'bg-info']);
    const scroller = page.locator('.leaderboard-list');
    expect(await scroller.evaluate((el) => getComputedStyle(el).maxHeight)).toBe('400px');
    expect(await scroller.evaluate((el) => getComputedStyle(el).overflowY)).toBe('auto');
    await page.getByLabel('Search').fill('DAV');
    await expect.poll(() => rows.allTextContents()).toEqual(['#3dave50 points']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows My Stats and, under Team Stats, the pie of two scoring members', async () => {
    const { page, errors } = await openPage(contexts.alice!);
    await page.goto(`${server.url}/profile`);
    await expect.poll(() => page.getByRole('radio', { name: 'My Stats' }).isChecked()).toBe(true);
    const mine = page.getByRole('list', { name: 'My completions' });
    await expect.poll(() => mine.getByRole('listitem').count()).toBe(2);
    expect(await mine.textContent()).toContain(byNumber(7).name);
    expect(await page.locator('svg.team-pie-chart').count()).toBe(0);

    await page.getByText('Team Stats').click();
    const chart = page.getByRole('img', { name: 'Points per member' });
    await expect.poll(() => chart.count()).toBe(1);
    expect(await chart.getAttribute('width')).toBe(String(PIE_CHART.width));
    expect(await chart.getAttribute('height')).toBe(String(PIE_CHART.height));
    // Drawn at its size: 400 by 400 on the page, the slices filling a disc of radius 100.
    const box = await chart.boundingBox();
    expect([box?.width, box?.height]).toEqual([PIE_CHART.width, PIE_CHART.height]);
    const sectors = chart.locator('.team-pie-slice path');
    await expect.poll(() => sectors.count()).toBe(2);
    expect(await sectors.evaluateAll((els) => els.map((e) => e.getAttribute('fill')))).toEqual(
      PIE_CHART.colors.slice(0, 2),
    );
    const disc = await sectors.evaluateAll((els) => {
      const boxes = els.map((e) => (e as SVGGraphicsElement).getBBox());
      const left = Math.min(...boxes.map((b) => b.x));
      const right = Math.max(...boxes.map((b) => b.x + b.width));
      return Math.round(right - left);
    });
    expect(disc).toBe(2 * PIE_CHART.outerRadius);
    // Each slice's tooltip names its member and points.
    expect(await sectors.evaluateAll((els) => els.map((e) => e.querySelector('title')?.textContent))).toEqual(
      ['alice: 300', 'bob: 400'],
    );
    expect(await page.locator('figcaption').textContent()).toBe('Points per member: alice 300, bob 400');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("tells a participant on no team that they're not on a team", async () => {
    const page = await contexts.carol!.newPage();
    await page.goto(`${server.url}/profile`);
    await page.getByText('Team Stats').click();
    await expect.poll(() => page.getByText(UI_TEXT.notOnTeam).count()).toBe(1);
    await page.close();
  });
});
