import { DIVISION_MESSAGES, MESSAGES } from '@ctf/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations, settle } from './support/a11y.js';
import { browserAvailable } from './support/browser.js';
import { HttpClient } from './support/http.js';
import type { RunningServer } from './support/server.js';
import { useBrowserSuite } from './support/suite.js';

const run = browserAvailable();

/**
 * Issue 19's divisions in a real browser: an admin defines them in the Settings tab, a player picks
 * one on the profile page, and the leaderboard's division filter ranks within the division.
 */
describe.runIf(run)('divisions in Chromium', { timeout: 180_000 }, () => {
  const suite = useBrowserSuite();
  let server: RunningServer;
  beforeAll(() => {
    server = suite.server;
  });

  const context = (user: string, admin = false) =>
    // The axe checker's script needs the CSP bypass; the site's own scripts do not.
    suite.context(user, {
      admin,
      bypassCSP: true,
      reducedMotion: 'reduce',
      viewport: { width: 1280, height: 800 },
    });

  it('an admin defines divisions, a player picks one, and the leaderboard ranks within it', async () => {
    // The admin defines two divisions in the Settings tab.
    const adminPage = await (await context('organiser', true)).newPage();
    await adminPage.goto(`${server.url}/admin/panel`);
    await adminPage.getByRole('tab', { name: 'Settings' }).click();
    await adminPage.getByRole('link', { name: 'Play' }).click();
    const editor = adminPage.getByRole('form', { name: 'Divisions' });
    await editor.getByText('No divisions: everyone competes on one leaderboard.').waitFor();
    await editor.getByRole('button', { name: 'Add Division' }).click();
    await editor.getByLabel('Division 1 name').fill('First-years');
    await editor.getByRole('button', { name: 'Add Division' }).click();
    await editor.getByLabel('Division 2 name').fill('Open');
    await editor.getByRole('button', { name: 'Save Divisions' }).click();
    await expect
      .poll(() => adminPage.getByTestId('admin-message').textContent())
      .toContain('Divisions saved.');
    await adminPage.close();

    // Challenges and the site switch through the API.
    const admin = await new HttpClient(server.url).signIn(server.url, 'organiser', true);
    const flags: Record<string, string> = {};
    for (const [name, difficulty] of [
      ['Warm', 'Simple'],
      ['Mild', 'Easy'],
      ['Hot', 'Medium'],
    ] as const) {
      flags[name] = `flag{${name.toLowerCase()}}`;
      const created = await admin.post(server.url, '/api/admin/ctf/create_challenge', {
        name,
        description: 'A challenge.',
        category: 'General',
        difficulty,
        written_by: 'club',
        flag: flags[name],
        files: [],
      });
      expect(created.status, created.text).toBe(200);
    }
    await admin.post(server.url, '/api/admin/update_site_info', { activated: true });
    const list = (await admin.get(server.url, '/api/ctf/challenges')).body as { _id: string; name: string }[];
    const idOf = (name: string) => list.find((c) => c.name === name)!._id;

    // A player picks First-years on their profile page.
    const fresher = await context('fresher');
    const profile = await fresher.newPage();
    await profile.goto(`${server.url}/profile`);
    const select = profile.getByLabel('Your division');
    await select.selectOption('First-years');
    await profile.getByRole('button', { name: 'Save division' }).click();
    await profile.getByText(DIVISION_MESSAGES.picked).waitFor();
    await expect
      .poll(async () => (await fresher.request.get(`${server.url}/api/user/info`)).json())
      .toMatchObject({
        division: 'First-years',
      });

    // Two more players through the API; then everyone solves.
    const senior = await new HttpClient(server.url).signIn(server.url, 'senior');
    const junior = await new HttpClient(server.url).signIn(server.url, 'junior');
    expect((await senior.post(server.url, '/api/user/division', { division: 'Open' })).status).toBe(200);
    expect((await junior.post(server.url, '/api/user/division', { division: 'First-years' })).status).toBe(
      200,
    );
    const solve = async (post: (path: string, body: unknown) => Promise<unknown>, name: string) => {
      const body = await post('/api/ctf/submit-flag', { challenge_id: idOf(name), flag: flags[name] });
      expect((body as { message: string }).message).toBe(MESSAGES.correctFlag);
    };
    const viaApi = (client: HttpClient) => async (path: string, body: unknown) =>
      (await client.post(server.url, path, body)).body as unknown;
    // The player who picked in the browser solves with the browser's own session.
    const viaBrowser = async (path: string, body: unknown) =>
      (
        await fresher.request.post(`${server.url}${path}`, { data: body, headers: { origin: server.url } })
      ).json();
    await solve(viaApi(senior), 'Hot'); // 200
    await solve(viaBrowser, 'Mild'); // 100
    await solve(viaApi(junior), 'Warm'); // 50

    // After the first solve the profile says the division is fixed, and the server refuses a change.
    await profile.reload();
    await profile.getByText(/cannot change after your first solve/).waitFor();
    await profile.getByLabel('Your division').selectOption('Open');
    await profile.getByRole('button', { name: 'Save division' }).click();
    await profile.getByRole('alert').filter({ hasText: DIVISION_MESSAGES.lockedAfterSolve }).waitFor();

    // The leaderboard: the whole board, then First-years ranked within the division.
    const board = await fresher.newPage();
    await board.goto(`${server.url}/leaderboard`);
    const entries = board.getByTestId('leaderboard-entry');
    await expect
      .poll(() => entries.allTextContents())
      .toEqual(['#1senior200 points', '#2fresher100 points', '#3junior50 points']);
    await board.getByLabel('Division').selectOption('First-years');
    await expect.poll(() => entries.allTextContents()).toEqual(['#1fresher100 points', '#2junior50 points']);
    // The score graph follows the filter: the division's best.
    const graphTitle = board.getByRole('heading', { name: /over time/ });
    await expect.poll(() => graphTitle.textContent()).toBe('Top 2 in First-years over time');
    await board.getByRole('button', { name: 'My position' }).click();
    await expect.poll(() => board.getByTestId('position-note').textContent()).toBe('Your position: #1.');
    await board.getByLabel('Division').selectOption('Open');
    await expect.poll(() => entries.allTextContents()).toEqual(['#1senior200 points']);
    await expect.poll(() => graphTitle.textContent()).toBe('Top 1 in Open over time');

    // The new controls pass the same axe checks as the rest of the site.
    const problems: string[] = [];
    await settle(board);
    for (const v of await seriousViolations(board)) problems.push(`/leaderboard: ${v}`);
    await settle(profile);
    for (const v of await seriousViolations(profile)) problems.push(`/profile: ${v}`);
    const settings = await (await context('organiser', true)).newPage();
    await settings.goto(`${server.url}/admin/panel?tab=settings&section=play`);
    await settings.getByRole('form', { name: 'Divisions' }).getByLabel('Division 2 name').waitFor();
    await settle(settings);
    for (const v of await seriousViolations(settings)) problems.push(`/admin/panel Settings: ${v}`);
    expect(problems).toEqual([]);
  });
});
