import { readFile } from 'node:fs/promises';
import { MESSAGES } from '@ctf/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAdminTab, settledTabViolations, tableCells } from './support/admin-panel.js';
import { browserAvailable } from './support/browser.js';
import { HttpClient } from './support/http.js';
import { buildIntegrityWorld, INTEGRITY_CHALLENGES, type IntegrityWorld } from './support/integrity-world.js';

const run = browserAvailable();

/** Every browser here, like every player in a lecture hall behind one NAT, comes from one address. */
const ADDRESS = '127.0.0.1';
const LEAKED = 'flag{leaked-in-discord-7731}';
/** Wrong guesses of a teamless player seeded over HTTP, so the Submissions tab has two pages. */
const FILLER_ATTEMPTS = 60;
const CSV_HEADER = 'id,time,username,team,challenge,result,submitted,address';

/**
 * Issue 18 in a real browser, on one server: the Submissions tab (filters, server pages, CSV),
 * a same-address signal followed to its rows, hiding a team from the leaderboard, banning a
 * logged-in user, and the read-only Audit tab holding all of it. The scenarios run in order and
 * build on each other: the Audit tab lists what the earlier ones did.
 */
describe.runIf(run)('integrity and moderation in Chromium', { timeout: 240_000 }, () => {
  /** Alice (Red Rockets), bob (Blue Barons), teamless mallory, and the organiser's admin page. */
  let world: IntegrityWorld;

  beforeAll(async () => {
    world = await buildIntegrityWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  /** A Submissions row without its id and time: user, team, challenge, result, text, address. */
  const visible = (row: string[]) => row.slice(2);
  const axe = () => settledTabViolations(world.admin);
  const tab = (name: string) => openAdminTab(world.admin, name);
  const adminMessage = () => world.admin.getByTestId('admin-message').textContent();

  it('lists every attempt newest first with result and address, filters, pages, and exports the CSV', async () => {
    const { server, admin, pageOf, challengeId, submitFlag, logHolds } = world;
    // A teamless player hammers one challenge: 10 wrong answers, then the limiter's refusals.
    const filler = await new HttpClient(server.url).signIn(server.url, 'filler');
    for (let i = 0; i < FILLER_ATTEMPTS; i++) {
      const r = await filler.post(server.url, '/api/ctf/submit-flag', {
        challenge_id: challengeId('Cipher Wheel'),
        flag: `filler-${i}`,
      });
      expect([200, 429]).toContain(r.status);
    }

    const alice = await pageOf('alice');
    await submitFlag(alice, 'Warm Up', 'flag{warm-down}', MESSAGES.incorrectFlag);
    await submitFlag(alice, 'Warm Up', LEAKED, MESSAGES.incorrectFlag);
    await submitFlag(alice, 'Warm Up', 'flag{warm-up}', MESSAGES.correctFlag);
    const bob = await pageOf('bob');
    await submitFlag(bob, 'Warm Up', 'flag{warm}', MESSAGES.incorrectFlag);
    await submitFlag(bob, 'Cipher Wheel', 'flag{cipher-wheel}', MESSAGES.correctFlag);
    await alice.close();
    await bob.close();
    await logHolds(FILLER_ATTEMPTS + 5);

    await admin.goto(`${server.url}/admin/panel`);
    await tab('Submissions');
    const table = admin.getByRole('table', { name: 'Submissions' });
    await expect.poll(async () => (await tableCells(table)).length).toBe(50);
    const first = await tableCells(table);
    expect(first.slice(0, 5).map(visible)).toEqual([
      ['bob', 'Blue Barons', 'Cipher Wheel', 'correct', '', ADDRESS],
      ['bob', 'Blue Barons', 'Warm Up', 'wrong', 'flag{warm}', ADDRESS],
      ['alice', 'Red Rockets', 'Warm Up', 'correct', '', ADDRESS],
      ['alice', 'Red Rockets', 'Warm Up', 'wrong', LEAKED, ADDRESS],
      ['alice', 'Red Rockets', 'Warm Up', 'wrong', 'flag{warm-down}', ADDRESS],
    ]);
    // Newest first: the Time column never goes up, and a correct flag's text is never shown.
    const times = first.map((r) => Date.parse(r[1]!));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(first.flat()).not.toContain('flag{warm-up}');
    expect(first.slice(5).every((r) => r[2] === 'filler' && r[3] === 'None')).toBe(true);

    // Server-side pages: the second page holds the oldest rows, ending with the filler's first guess.
    const pager = admin.getByRole('navigation', { name: 'Submissions pages' });
    await pager.getByRole('button', { name: /next/i }).click();
    await expect.poll(async () => (await tableCells(table)).length).toBe(FILLER_ATTEMPTS + 5 - 50);
    const second = await tableCells(table);
    expect(visible(second.at(-1)!)).toEqual(['filler', 'None', 'Cipher Wheel', 'wrong', 'filler-0', ADDRESS]);
    expect(second.filter((r) => r[5] === 'rate_limited').length).toBeGreaterThan(0);
    expect(second.some((r) => first.some((f) => f[0] === r[0]))).toBe(false);
    await pager.getByRole('button', { name: /prev/i }).click();
    await expect.poll(async () => visible((await tableCells(table))[0]!)[0]).toBe('bob');

    // Filters narrow the list: by user, then by user and result, then by the text of a guess.
    const form = admin.getByRole('form', { name: 'Submission filters' });
    await form.getByLabel('User').fill('alice');
    await form.getByRole('button', { name: 'Filter' }).click();
    await expect
      .poll(async () => (await tableCells(table)).map((r) => r[5]))
      .toEqual(['correct', 'wrong', 'wrong']);
    expect(await admin.getByRole('navigation', { name: 'Submissions pages' }).count()).toBe(0);
    await form.getByLabel('Result').selectOption('wrong');
    await form.getByRole('button', { name: 'Filter' }).click();
    await expect
      .poll(async () => (await tableCells(table)).map((r) => r[6]))
      .toEqual([LEAKED, 'flag{warm-down}']);
    await form.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(async () => (await tableCells(table)).length).toBe(50);
    await form.getByLabel('Text contains').fill('leaked-in-discord');
    await form.getByRole('button', { name: 'Filter' }).click();
    await expect
      .poll(async () => (await tableCells(table)).map(visible))
      .toEqual([['alice', 'Red Rockets', 'Warm Up', 'wrong', LEAKED, ADDRESS]]);

    // The CSV export downloads the rows of the filters applied (here the one leaked guess)...
    const download = async () => {
      const started = admin.waitForEvent('download');
      await admin.getByRole('link', { name: 'Export CSV' }).click();
      const file = await started;
      expect(file.suggestedFilename()).toBe('submissions.csv');
      return (await readFile((await file.path())!, 'utf8')).trim().split(/\r?\n/);
    };
    const leaked = await download();
    expect(leaked[0]).toBe(CSV_HEADER);
    expect(leaked).toHaveLength(2);
    expect(leaked[1]).toMatch(
      new RegExp(
        `^\\d+,[^,]+,alice,Red Rockets,Warm Up,wrong,${LEAKED.replace(/[{}]/g, '\\$&')},${ADDRESS}$`,
      ),
    );
    // ...and, with the filters cleared, every row of the log (not just the page shown).
    await form.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(async () => (await tableCells(table)).length).toBe(50);
    const everything = await download();
    expect(everything[0]).toBe(CSV_HEADER);
    expect(everything).toHaveLength(1 + FILLER_ATTEMPTS + 5);
    expect(everything.filter((l) => l.includes(',filler,')).length).toBe(FILLER_ATTEMPTS);
    expect(everything[1]).toMatch(/,bob,Blue Barons,Cipher Wheel,correct,,127\.0\.0\.1$/);
  });

  it('names both teams that solved one challenge minutes apart from one address, and leads to the rows', async () => {
    const { admin, pageOf, submitFlag } = world;
    const alice = await pageOf('alice');
    await submitFlag(alice, 'Twin Peaks', 'flag{twin-peaks}', MESSAGES.correctFlag);
    const bob = await pageOf('bob');
    await submitFlag(bob, 'Twin Peaks', 'flag{twin-peaks}', MESSAGES.correctFlag);
    await alice.close();
    await bob.close();

    await tab('Integrity');
    const signals = admin.getByRole('table', { name: 'Signals' });
    const signal = signals.locator('tbody tr').filter({ hasText: "solved 'Twin Peaks'" });
    await expect.poll(() => signal.count()).toBe(1);
    const [kind, summary, competitors, evidence] = (await signal.locator('td').allTextContents()).map((t) =>
      t.trim(),
    );
    expect(kind).toBe('Same address, same solve');
    expect(summary).toMatch(
      /^Red Rockets and Blue Barons solved 'Twin Peaks' [\d.]+ min apart from 127\.0\.0\.1$/,
    );
    expect(competitors).toBe('Red Rockets, Blue Barons');
    expect(await axe()).toEqual([]);
    const evidenceIds = evidence!.replace('Show 2 rows in Submissions', '').trim().split(', ');
    expect(evidenceIds).toHaveLength(2);

    // Following the evidence opens the Submissions tab on exactly those two rows.
    await signal.getByRole('button', { name: 'Show 2 rows in Submissions' }).click();
    await expect
      .poll(() => admin.getByRole('tab', { name: 'Submissions', exact: true }).getAttribute('aria-selected'))
      .toBe('true');
    await expect
      .poll(() => admin.getByTestId('evidence-note').textContent())
      .toContain(`Showing the evidence of a signal: rows ${evidenceIds.join(', ')}.`);
    const table = admin.getByRole('table', { name: 'Submissions' });
    await expect
      .poll(async () => (await tableCells(table)).map((r) => [r[0], ...visible(r)]))
      .toEqual([
        [evidenceIds[1], 'bob', 'Blue Barons', 'Twin Peaks', 'correct', '', ADDRESS],
        [evidenceIds[0], 'alice', 'Red Rockets', 'Twin Peaks', 'correct', '', ADDRESS],
      ]);
    expect(await axe()).toEqual([]);
    await admin.getByRole('button', { name: 'Show all submissions' }).click();
    await expect.poll(async () => (await tableCells(table)).length).toBe(50);
    expect(await admin.getByTestId('evidence-note').count()).toBe(0);
  });

  it('hides a team from the leaderboard and shows it again; a ban ends an open session and login says why', async () => {
    const { server, admin, reasons, prompts, pageOf, submitFlag } = world;
    const bob = await pageOf('bob');
    const board = bob.getByTestId('leaderboard-entry');
    const names = async () => (await board.allTextContents()).join(' | ');
    await bob.goto(`${server.url}/leaderboard`);
    await expect.poll(names).toMatch(/Red Rockets.*Blue Barons|Blue Barons.*Red Rockets/);

    await tab('Teams');
    const teams = admin.getByRole('table', { name: 'Teams' });
    const red = teams.locator('tbody tr').filter({ hasText: 'Red Rockets' });
    reasons.push('Shared flags in Discord');
    await admin.getByRole('button', { name: 'Hide team Red Rockets' }).click();
    await expect.poll(adminMessage).toContain("Team 'Red Rockets' is hidden from every public view.");
    expect(prompts.at(-1)).toBe('Reason to hide team Red Rockets:');
    await expect.poll(() => red.getByText('Hidden', { exact: true }).count()).toBe(1);
    await bob.goto(`${server.url}/leaderboard`);
    await expect.poll(names).toContain('Blue Barons');
    expect(await names()).not.toContain('Red Rockets');

    await admin.getByRole('button', { name: 'Show team Red Rockets' }).click();
    await expect.poll(adminMessage).toContain("Team 'Red Rockets' is shown in public views again.");
    await expect.poll(() => red.getByText('Hidden', { exact: true }).count()).toBe(0);
    await bob.goto(`${server.url}/leaderboard`);
    await expect.poll(names).toContain('Red Rockets');
    await bob.close();

    // Mallory is mid-game with a challenge open when the ban lands.
    const mallory = await pageOf('mallory');
    await submitFlag(mallory, 'Warm Up', 'flag{maybe}', MESSAGES.incorrectFlag);
    await tab('Users');
    reasons.push('Flag sharing');
    await admin.getByRole('button', { name: 'Ban user mallory' }).click();
    await expect.poll(adminMessage).toContain("User 'mallory' is banned: it cannot log in.");
    expect(prompts.at(-1)).toBe('Reason to ban user mallory:');
    const users = admin.getByRole('table', { name: 'Users' });
    await expect
      .poll(() => users.locator('tbody tr').filter({ hasText: 'mallory' }).getByText('Banned').count())
      .toBe(1);

    // Her next request finds no session: the flag is refused, and the next page is the login.
    await submitFlag(mallory, 'Warm Up', 'flag{warm-up}', MESSAGES.unauthorized);
    await mallory.reload();
    await mallory.waitForURL(`${server.url}/login`);
    const banned =
      'This account is banned from the competition by the organisers. Reason: Flag sharing. Contact them if you think this is a mistake.';
    await mallory.getByLabel('Username').fill('mallory');
    await mallory.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => mallory.getByRole('alert').filter({ hasText: 'banned' }).textContent())
      .toBe(banned);
    expect(new URL(mallory.url()).pathname).toBe('/login');
    expect((await mallory.request.get(`${server.url}/api/authenticated`)).status()).toBe(401);

    await admin.getByRole('button', { name: 'Unban user mallory' }).click();
    await expect.poll(adminMessage).toContain("User 'mallory' is no longer banned.");
    await mallory.getByRole('button', { name: 'Sign in' }).click();
    await mallory.waitForURL(`${server.url}/compete`);
    expect((await mallory.request.get(`${server.url}/api/authenticated`)).status()).toBe(200);
    await mallory.close();
  });

  it('the Audit tab lists those actions with who and what, filters by action, and offers no edit or delete', async () => {
    const { server, organiser, admin, challengeId } = world;
    // One more admin action, in the panel: a challenge edit that also changes the flag.
    await tab('View Challenges');
    await admin.getByRole('button', { name: 'Edit Twin Peaks' }).click();
    const edit = admin.getByRole('region', { name: 'Edit Twin Peaks' });
    await edit.getByLabel('Name').fill('Twin Peaks Revisited');
    await edit.getByLabel('Flag', { exact: true }).fill('flag{twin-peaks-2}');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(adminMessage).toContain("Challenge 'Twin Peaks Revisited' updated successfully.");

    await tab('Audit');
    const table = admin.getByRole('table', { name: 'Audit log' });
    const twinPeaks = `challenge 'Twin Peaks Revisited' (#${challengeId('Twin Peaks')})`;
    await expect
      .poll(async () => (await tableCells(table))[0]?.slice(1, 4))
      .toEqual(['organiser', 'challenge.update', twinPeaks]);
    const rows = await tableCells(table);
    const actions = rows.map((r) => `${r[2]} ${r[3]!.replace(/ \(#\d+\)$/, '')}`);
    expect(actions).toEqual([
      "challenge.update challenge 'Twin Peaks Revisited'",
      "moderation.unban user 'mallory'",
      "moderation.ban user 'mallory'",
      "moderation.unhide team 'Red Rockets'",
      "moderation.hide team 'Red Rockets'",
      'site.switch site',
      ...INTEGRITY_CHALLENGES.map((c) => `challenge.create challenge '${c.name}'`).reverse(),
    ]);
    expect(rows.every((r) => r[1] === 'organiser')).toBe(true);
    const details = rows[0]![4]!;
    expect(details).toContain('"name":"Twin Peaks"');
    expect(details).toContain('"name":"Twin Peaks Revisited"');
    expect(details).not.toContain('flag{twin-peaks');
    expect(rows[2]![4]).toContain('"reason":"Flag sharing"');
    expect(rows[4]![4]).toContain('"reason":"Shared flags in Discord"');

    // Filtered by action, the list narrows to that kind of entry.
    const form = admin.getByRole('form', { name: 'Audit filters' });
    await form.getByLabel('Action').selectOption('moderation.ban');
    await form.getByRole('button', { name: 'Filter' }).click();
    await expect
      .poll(async () => (await tableCells(table)).map((r) => [r[1], r[2], r[3]!.replace(/ \(#\d+\)$/, '')]))
      .toEqual([['organiser', 'moderation.ban', "user 'mallory'"]]);
    await form.getByLabel('Action').selectOption('challenge.update');
    await form.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(async () => (await tableCells(table)).map((r) => r[3])).toEqual([twinPeaks]);

    // Read-only: the tab holds only its filter form, and the table no control at all.
    const panel = admin.getByRole('tabpanel', { name: 'Audit' });
    expect(await table.locator('button, a, input, select, textarea, [contenteditable]').count()).toBe(0);
    expect(await panel.getByRole('button').allTextContents()).toEqual(['Filter', 'Clear']);
    expect(await panel.getByRole('textbox').count()).toBe(1);
    // Nor does the API take a write to the log.
    const before = (await organiser.get(server.url, '/api/admin/audit?limit=200')).text;
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const r = await organiser.call(server.url, method as 'POST', '/api/admin/audit', {});
      expect(r.status, method).toBeGreaterThanOrEqual(400);
    }
    expect((await organiser.get(server.url, '/api/admin/audit?limit=200')).text).toBe(before);
  });

  it("per-team flags: each team sees its own, an admin reads one on demand, and another team's is certain evidence", async () => {
    const { server, organiser, admin, ids, pageOf, challengeId, submitFlag } = world;
    await tab('Create Challenge');
    const form = admin.getByRole('form', { name: 'Create Challenge' });
    await form.getByLabel('Name').fill('Relay');
    await form.getByLabel('Written by').fill('club');
    await form.getByLabel('Category').selectOption('General');
    await form.getByLabel('Difficulty').selectOption('Easy');
    await form.getByLabel('Flag', { exact: true }).fill('flag{relay}');
    await form.getByLabel('Description').fill('<p>Hand your own flag to the relay service.</p>');
    await form.getByLabel(/^Per-team flags:/).check();
    await form.getByLabel(/^Show each competitor its own flag/).check();
    await form.getByRole('button', { name: 'Create Challenge' }).click();
    await expect.poll(adminMessage).toContain("Challenge 'Relay' created successfully.");
    const listed = (await organiser.get(server.url, '/api/admin/ctf/fetch_challenges')).body as {
      _id: string;
      name: string;
    }[];
    ids.set('Relay', listed.find((c) => c.name === 'Relay')!._id);

    // Each team's page shows its own flag: the base with a suffix, different per team.
    const ownFlag = async (page: Page) => {
      await page.goto(`${server.url}/challenge?id=${challengeId('Relay')}`);
      const panel = page.getByTestId('team-flag-panel');
      await expect.poll(() => panel.getByRole('heading').textContent()).toBe('Your own flag');
      return ((await panel.getByTestId('team-flag').textContent()) ?? '').trim();
    };
    const alice = await pageOf('alice');
    const bob = await pageOf('bob');
    const red = await ownFlag(alice);
    const blue = await ownFlag(bob);
    expect(red).toMatch(/^flag\{relay_[0-9a-f]{16}\}$/);
    expect(blue).toMatch(/^flag\{relay_[0-9a-f]{16}\}$/);
    expect(blue).not.toBe(red);

    // The admin reads Red Rockets' flag on demand from View Challenges.
    await tab('View Challenges');
    await admin.getByRole('button', { name: "Show a competitor's flag of Relay" }).click();
    const reveal = admin.getByRole('region', { name: 'Per-team flag of Relay' });
    await reveal.getByLabel('Team or username').fill('Red Rockets');
    await reveal.getByRole('button', { name: 'Show flag' }).click();
    await expect
      .poll(() => reveal.getByTestId('team-flag').textContent())
      .toBe(`Flag of Red Rockets: ${red}`);
    await reveal.getByRole('button', { name: 'Close' }).click();

    // Bob sends Red Rockets' flag: wrong for him, and certain evidence naming both teams.
    await submitFlag(bob, 'Relay', red, MESSAGES.incorrectFlag);
    await submitFlag(alice, 'Relay', red, MESSAGES.correctFlag);
    await alice.close();
    await bob.close();
    await expect
      .poll(async () => {
        const r = await organiser.get(server.url, '/api/admin/signals');
        return (r.body as { kind: string }[]).filter((s) => s.kind === 'other_team_flag').length;
      })
      .toBe(1);
    await admin.goto(`${server.url}/admin/panel`);
    await tab('Integrity');
    const signal = admin
      .getByRole('table', { name: 'Signals' })
      .locator('tbody tr')
      .filter({ hasText: "Another competitor's per-team flag (certain)" });
    await expect.poll(() => signal.count()).toBe(1);
    const [, summary, competitors] = (await signal.locator('td').allTextContents()).map((t) => t.trim());
    expect(summary).toBe(
      "bob (Blue Barons) sent the per-team flag of 'Relay' that belongs to Red Rockets to 'Relay': certain, that flag is derived for Red Rockets alone",
    );
    expect(competitors).toBe('Blue Barons, Red Rockets');
    await signal.getByRole('button', { name: 'Show row in Submissions' }).click();
    const table = admin.getByRole('table', { name: 'Submissions' });
    await expect
      .poll(async () => (await tableCells(table)).map(visible))
      .toEqual([['bob', 'Blue Barons', 'Relay', 'wrong', red, ADDRESS]]);
    // The read is in the audit log, naming the competitor and never the flag.
    const audit = await organiser.get(server.url, '/api/admin/audit?action=challenge.reveal_team_flag');
    expect(audit.text).toContain('Red Rockets');
    expect(audit.text).not.toContain(red.slice(-17));
  });
});
