import { MESSAGES, type SiteInfo } from '@ctf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations, settle, trackRequests } from './support/a11y.js';
import { browserAvailable } from './support/browser.js';
import { HttpClient } from './support/http.js';
import { startServer, type RunningServer } from './support/server.js';
import { pressAndAnswer, useBrowserSuite } from './support/suite.js';

const run = browserAvailable();
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/**
 * A new site as `npm start` makes it, over HTTP only (no browser needed): the built server on a
 * fresh data folder, no EVENT_START/EVENT_END, the log at its default level.
 */
describe('first run of the built server on a fresh data folder', { timeout: 60_000 }, () => {
  let server: RunningServer;
  const startedAt = Date.now();
  beforeAll(async () => {
    server = await startServer({ EVENT_START: '', EVENT_END: '', LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('prints the address to open, PUBLIC_URL, and no other address', async () => {
    await expect.poll(() => server.output()).toContain(`CTF site ready at ${server.url}`);
    const out = server.output();
    expect(out).not.toContain('Server listening at');
    // The trial is on here (no provider, loopback): the log says so, before the ready line.
    expect(out).toContain('Local trial sign-in is on');
    expect(out.indexOf('Local trial sign-in is on')).toBeLessThan(out.indexOf('CTF site ready at'));
    // Every URL the log prints is the site's own.
    const urls = out.match(/https?:\/\/[^\s"()]+/g) ?? [];
    expect(urls.length).toBeGreaterThan(0);
    for (const u of urls) expect(u.startsWith(server.url)).toBe(true);
  });

  it('makes a window seven days ahead at a full hour for seven days, opening and closing play with it', async () => {
    const info = (await (await fetch(`${server.url}/api/info/site`)).json()) as SiteInfo;
    const start = Date.parse(info.eventStart);
    expect(start % HOUR).toBe(0);
    expect(start).toBeGreaterThanOrEqual(startedAt + 7 * DAY);
    expect(start).toBeLessThanOrEqual(Date.now() + 7 * DAY + HOUR);
    expect(Date.parse(info.eventEnd) - start).toBe(7 * DAY);
    expect(info.activated).toBe(false);
    expect(info.prizeText).toBe('');
    const admin = await new HttpClient(server.url).signIn(server.url, 'organiser', true);
    const settings = await admin.get(server.url, '/api/admin/settings');
    expect(settings.body).toMatchObject({ autoOpen: true, autoClose: true, allowCreateDuringEvent: false });
  });

  it('signs in from localhost, 127.0.0.1 and [::1] alike (a loopback trial), and refuses another address with the one to open', async () => {
    const loopback = `http://127.0.0.1:${server.port}`;
    for (const [i, origin] of [server.url, loopback, `http://[::1]:${server.port}`].entries()) {
      const client = await new HttpClient(origin).signIn(loopback, `trial-${i}`);
      expect((await client.get(loopback, '/api/user/info')).body).toMatchObject({ username: `trial-${i}` });
    }
    const refused = await new HttpClient('http://192.0.2.7:3000').post(loopback, '/api/auth/local', {
      username: 'elsewhere',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain(`Open the site at ${server.url}`);
  });

  it('imports the sample challenges, and creates inside the window only once the organisers allow it', async () => {
    const admin = await new HttpClient(server.url).signIn(server.url, 'organiser', true);
    const samples = await admin.post(server.url, '/api/admin/sample_challenges', {});
    expect(samples.status, samples.text).toBe(200);
    expect([...samples.body.created].sort()).toEqual(['Caesar Salad', 'First Steps', 'Regex Club']);

    // The event under way: Create Challenge is refused, with the specification's message...
    const now = Date.now();
    const moved = await admin.post(server.url, '/api/admin/settings', {
      eventStart: new Date(now - HOUR).toISOString(),
      eventEnd: new Date(now + DAY).toISOString(),
    });
    expect(moved.status, moved.text).toBe(200);
    const challenge = {
      name: 'Late Addition',
      description: 'Made during the event.',
      category: 'General',
      difficulty: 'Easy',
      written_by: 'organiser',
      flag: 'flag{late}',
      files: [],
    };
    const refused = await admin.post(server.url, '/api/admin/ctf/create_challenge', challenge);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(MESSAGES.createDisabled);
    // ...until the organisers allow creating during the event.
    expect(
      (await admin.post(server.url, '/api/admin/settings', { allowCreateDuringEvent: true })).status,
    ).toBe(200);
    const created = await admin.post(server.url, '/api/admin/ctf/create_challenge', challenge);
    expect(created.status, created.text).toBe(200);
    expect(created.body.message).toBe("Challenge 'Late Addition' created successfully.");
  });
});

/**
 * A new site as `npm start` makes it, in Chromium: no EVENT_START/EVENT_END (the site makes its
 * own window), the local trial sign-in, no challenges. A visitor sees when it opens; the first
 * admin follows the set-up checklist: sample challenges, then open the site.
 */
describe.runIf(run)('first run: the set-up checklist in Chromium', { timeout: 180_000 }, () => {
  const startedAt = Date.now();
  const suite = useBrowserSuite({ EVENT_START: '', EVENT_END: '' });
  let server: RunningServer;
  beforeAll(() => {
    server = suite.server;
  });

  it('a fresh site opens in a week, for a week, and a visitor sees when', async () => {
    const info = (await (await fetch(`${server.url}/api/info/site`)).json()) as SiteInfo;
    const start = Date.parse(info.eventStart);
    expect(start).toBeGreaterThanOrEqual(startedAt + 7 * DAY);
    expect(start - startedAt - 7 * DAY).toBeLessThanOrEqual(HOUR);
    expect(Date.parse(info.eventEnd) - start).toBe(7 * 24 * HOUR);
    expect(info.activated).toBe(false);

    const page = await (await suite.context(null)).newPage();
    await page.goto(server.url);
    const countdown = page.getByTestId('countdown');
    await expect.poll(() => countdown.textContent()).toContain('Event Starts In');
    expect(await countdown.textContent()).not.toContain('Event has ended!');
    const player = await (await suite.context('first-player')).newPage();
    await player.goto(`${server.url}/compete`);
    await expect.poll(() => player.getByRole('alert').textContent()).toContain(MESSAGES.siteInactive);
    expect(await player.getByTestId('opens-at').textContent()).toContain('The event opens on');
  });

  it('the first admin adds the sample challenges and opens the site from the checklist', async () => {
    const context = await suite.context('organiser', {
      admin: true,
      bypassCSP: true,
      viewport: { width: 1280, height: 800 },
    });
    const page = trackRequests(await context.newPage());
    await page.goto(`${server.url}/admin/panel`);
    const checklist = page.getByTestId('setup-checklist');
    await checklist.getByRole('heading', { name: 'Set up your event' }).waitFor();
    expect(await checklist.getByTestId('setup-provider-github').textContent()).toContain(
      `${server.url}/api/auth/github/callback`,
    );
    expect(await checklist.getByTestId('setup-provider-discord').textContent()).toContain(
      `${server.url}/api/auth/discord/callback`,
    );
    expect(await checklist.textContent()).toContain('Local trial sign-in by name is on');
    await expect
      .poll(() => checklist.getByTestId('setup-dates').textContent())
      .toContain('Play opens by itself at the start and closes at the end.');
    await settle(page);
    expect(await seriousViolations(page)).toEqual([]);

    await pressAndAnswer(
      checklist.getByRole('button', { name: 'Add the sample challenges' }),
      '/api/admin/sample_challenges',
      page,
    );
    await expect
      .poll(() => checklist.textContent())
      .toContain('The site has 3 challenges: see View Challenges.');
    await page.getByRole('tab', { name: 'View Challenges' }).click();
    await page.getByText('First Steps', { exact: true }).first().waitFor();

    await pressAndAnswer(
      checklist.getByRole('button', { name: 'Open the site' }),
      '/api/admin/update_site_info',
      page,
    );
    await page.getByRole('button', { name: 'Site Active' }).waitFor();
    await expect.poll(() => checklist.textContent()).toContain('The site is open');

    // A player now sees the samples.
    const player = await (await suite.context('first-player')).newPage();
    await player.goto(`${server.url}/compete`);
    await player.getByRole('link', { name: 'First Steps' }).waitFor();

    // A second visit of the panel: the site has challenges, so no checklist.
    await page.reload();
    await page.getByRole('button', { name: 'Site Active' }).waitFor();
    expect(await page.getByTestId('setup-checklist').count()).toBe(0);
  });
});
