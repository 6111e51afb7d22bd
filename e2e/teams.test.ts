import { MESSAGES, UI_TEXT } from '@ctf/contract';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useBrowserSuite } from './support/suite.js';

const run = browserAvailable();

describe.runIf(run)('teams in Chromium', () => {
  // No OAuth provider on a loopback origin: the local trial sign-in is on.
  const suite = useBrowserSuite();
  let server: RunningServer;
  beforeAll(() => {
    server = suite.server;
  });

  async function signedInPage(username: string): Promise<{ page: Page; errors: string[] }> {
    const context = await suite.context(username);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    return { page, errors };
  }

  const teamMessage = (page: Page) => page.getByTestId('team-message');

  it('create, request, accept, member view, rename and remove across two browsers', async () => {
    const { page: leader, errors: leaderErrors } = await signedInPage('leader-lee');
    const { page: member, errors: memberErrors } = await signedInPage('member-max');

    // The profile page leads to the team page.
    await leader.goto(`${server.url}/profile`);
    await expect.poll(() => leader.getByRole('heading', { name: 'leader-lee' }).count()).toBe(1);
    await leader.getByRole('button', { name: 'Go to Team Page' }).click();
    await leader.waitForURL(`${server.url}/profile?mode=1`);
    await expect.poll(() => leader.getByText(UI_TEXT.noTeamsToJoin).count()).toBe(1);

    // Create from a different team-page URL so the redirect to /profile?mode=1 is visible.
    await leader.goto(`${server.url}/profile?mode=1&from=e2e`);
    await leader.getByLabel('Team name').fill('Packet Pirates');
    await leader.getByRole('button', { name: 'Create Team' }).click();
    await expect.poll(() => teamMessage(leader).textContent()).toContain(MESSAGES.teamCreated);
    expect(await teamMessage(leader).getAttribute('class')).toContain('alert-success');
    await leader.waitForURL(`${server.url}/profile?mode=1`);
    await expect.poll(() => leader.getByRole('heading', { name: 'Team: Packet Pirates' }).count()).toBe(1);
    await expect.poll(() => leader.getByText(UI_TEXT.noRequests).count()).toBe(1);

    // The other user asks to join.
    await member.goto(`${server.url}/profile?mode=1`);
    const select = member.getByLabel('Team to join');
    await expect.poll(() => select.count()).toBe(1);
    const requestButton = member.getByRole('button', { name: 'Request Join Team' });
    expect(await requestButton.isDisabled()).toBe(true);
    await select.selectOption({ label: 'Packet Pirates (1/4 members, 3 spots left)' });
    expect(await requestButton.isEnabled()).toBe(true);
    await requestButton.click();
    await expect.poll(() => teamMessage(member).textContent()).toContain(MESSAGES.requestSent);
    expect(await teamMessage(member).getAttribute('class')).toContain('alert-success');

    // The leader accepts after the confirmation.
    await leader.reload();
    const accept = leader.getByRole('button', { name: /Accept Request/ });
    await expect.poll(() => accept.count()).toBe(1);
    let confirmText = '';
    leader.once('dialog', (d) => {
      confirmText = d.message();
      void d.accept();
    });
    await accept.click();
    await expect.poll(() => teamMessage(leader).count()).toBe(1);
    expect(confirmText).toBe(UI_TEXT.confirmAccept);
    await expect.poll(() => leader.getByRole('button', { name: 'Remove member-max' }).count()).toBe(1);
    expect(await leader.getByRole('button', { name: 'Remove leader-lee' }).isDisabled()).toBe(true);
    await expect.poll(() => leader.getByText(UI_TEXT.noRequests).count()).toBe(1);

    // The member sees the read-only view.
    await member.reload();
    await expect.poll(() => member.getByRole('heading', { name: 'Team: Packet Pirates' }).count()).toBe(1);
    expect(await member.getByText('Team Leader:').textContent()).toContain('leader-lee');
    expect(await member.getByRole('button', { name: 'Update' }).count()).toBe(0);
    expect(await member.getByRole('button', { name: /Remove/ }).count()).toBe(0);
    expect(await member.getByRole('button', { name: 'Leave Team' }).count()).toBe(0);
    const memberItems = await member
      .getByRole('list', { name: 'Members' })
      .getByRole('listitem')
      .allTextContents();
    expect(memberItems.map((t) => t.replace('Leader', '').trim())).toEqual(['leader-lee', 'member-max']);

    // The leader renames: the message contains success and is green.
    await leader.getByLabel('New team name').fill('Buffer Buccaneers');
    await leader.getByRole('button', { name: 'Update' }).click();
    await expect.poll(() => teamMessage(leader).textContent()).toContain('success');
    expect(await teamMessage(leader).getAttribute('class')).toContain('alert-success');
    await expect.poll(() => leader.getByRole('heading', { name: 'Team: Buffer Buccaneers' }).count()).toBe(1);

    // The leader removes the member: a message other than the green ones is red.
    await leader.getByRole('button', { name: 'Remove member-max' }).click();
    await expect.poll(() => leader.getByRole('button', { name: 'Remove member-max' }).count()).toBe(0);
    expect(await teamMessage(leader).getAttribute('class')).toContain('alert-danger');
    await member.reload();
    await expect
      .poll(() =>
        member.getByRole('option', { name: 'Buffer Buccaneers (1/4 members, 3 spots left)' }).count(),
      )
      .toBe(1);

    // The leader leaves after the confirmation; the emptied team is gone.
    leader.once('dialog', (d) => void d.accept());
    await leader.getByRole('button', { name: 'Leave Team' }).click();
    await expect.poll(() => leader.getByRole('button', { name: 'Create Team' }).count()).toBe(1);
    await member.reload();
    await expect.poll(() => member.getByText(UI_TEXT.noTeamsToJoin).count()).toBe(1);

    expect(leaderErrors).toEqual([]);
    expect(memberErrors).toEqual([]);
  });
});
