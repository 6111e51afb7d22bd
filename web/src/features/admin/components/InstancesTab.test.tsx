import type { AdminInstance } from '@ctf/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/factories';
import { baseRoutes, json, mockApi, renderPage } from '../testing';
import { AdminPanel } from './AdminPanel';
import { ageText } from './InstancesTab';

const row = (id: number, extra: Partial<AdminInstance> = {}): AdminInstance => ({
  _id: String(id),
  team: 'Red',
  challenge: 'Box',
  challenge_id: '4',
  state: 'running',
  created_at: new Date(Date.now() - 12 * 60_000).toISOString(),
  expires_at: new Date(Date.now() + 18 * 60_000).toISOString(),
  addresses: ['nc chal.example.org 30123'],
  error: null,
  started_by: 'bob',
  ...extra,
});

describe('Instances tab', { timeout: 20_000 }, () => {
  it('lists every instance with its team, challenge, age, address and state, and stops one', async () => {
    let rows = [
      row(1),
      row(2, {
        team: 'Blue',
        state: 'failed',
        addresses: [],
        error: "Image 'web-chal:1' is not on the Docker engine and could not be pulled: pull access denied",
      }),
    ];
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/instances': () => json(rows),
        'POST /api/admin/instances/stop': (body) => {
          rows = rows.filter((r) => r._id !== (body as { instance_id: string }).instance_id);
          return json({ acknowledge: true, message: 'Instance stopped.' });
        },
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'Instances' }));
    const table = await screen.findByRole('table', { name: 'Instances' });
    const red = within(table).getByText('Red').closest('tr')!;
    expect(red).toHaveTextContent('Box');
    expect(red).toHaveTextContent('12 min');
    expect(red).toHaveTextContent('nc chal.example.org 30123');
    expect(red).toHaveTextContent('running');
    expect(within(table).getByTestId('instance-error')).toHaveTextContent("Image 'web-chal:1'");

    await userEvent.click(within(table).getByRole('button', { name: 'Stop the instance of Red for Box' }));
    expect(api.bodyOf('POST /api/admin/instances/stop')).toEqual({ instance_id: '1' });
    await waitFor(() =>
      expect(within(screen.getByRole('table', { name: 'Instances' })).queryByText('Red')).toBeNull(),
    );
    expect(screen.getByRole('button', { name: 'Dismiss the instance of Blue for Box' })).toBeInTheDocument();
  });

  it('says so when the engine does not answer; a monitor sees team and state, not the address', async () => {
    mockApi(
      baseRoutes({
        'GET /api/admin/instances': () => json([row(1, { addresses: [] })]),
        'GET /api/admin/instances/engine': () =>
          json({ reachable: false, message: 'The challenge host did not answer in 20 s' }),
      }),
    );
    renderPage(
      <AdminPanel />,
      '/admin/panel?tab=instances',
      makeUser({ _id: '5', username: 'mo', role: 'monitor' }),
    );
    expect(await screen.findByTestId('engine-unreachable')).toHaveTextContent(
      "The challenge host's engine is unreachable. The challenge host did not answer in 20 s",
    );
    const table = await screen.findByRole('table', { name: 'Instances' });
    expect(within(table).queryByRole('columnheader', { name: 'Address' })).toBeNull();
    expect(within(table).getByText('Red').closest('tr')!).toHaveTextContent('running');
  });

  it('shows the operator’s limits in the challenge form, and warns what internet access means', async () => {
    mockApi(
      baseRoutes({
        'GET /api/admin/instances/policy': () =>
          json({
            capabilities: ['CHOWN', 'NET_BIND_SERVICE'],
            maxMemoryMb: 512,
            maxCpus: 1,
            maxPids: 256,
            maxLifetimeMinutes: 60,
            imagePrefixes: ['ctf-'],
            runtime: null,
          }),
      }),
    );
    renderPage(<AdminPanel />, '/admin/panel?tab=create-challenge');
    const form = await screen.findByRole('form', { name: 'Create Challenge' });
    await userEvent.click(within(form).getByRole('checkbox', { name: /Start a container per team/ }));
    expect(await within(form).findByText('16 to 512 (this site’s limit)')).toBeInTheDocument();
    expect(within(form).getByText(/allowed here: CHOWN, NET_BIND_SERVICE/)).toBeInTheDocument();
    expect(within(form).getByText(/Allowed: ctf-/)).toBeInTheDocument();
    await userEvent.click(within(form).getByRole('checkbox', { name: /Internet access/ }));
    expect(within(form).getByText(/can then reach any public address/)).toBeInTheDocument();
  });

  it('shows an author what runs read-only', async () => {
    mockApi(baseRoutes());
    const author = makeUser({ _id: '6', username: 'writer', role: 'author' });
    renderPage(<AdminPanel />, '/admin/panel?tab=create-challenge', author);
    const form = await screen.findByRole('form', { name: 'Create Challenge' });
    expect(within(form).getByRole('checkbox', { name: /Start a container per team/ })).toBeDisabled();
    expect(within(form).getByText(/Only an admin sets what an instance runs/)).toBeInTheDocument();
  });

  it('writes ages in minutes, then hours', () => {
    const now = Date.parse('2026-01-01T02:00:00Z');
    expect(ageText('2026-01-01T01:55:00Z', now)).toBe('5 min');
    expect(ageText('2026-01-01T00:48:00Z', now)).toBe('1 h 12 min');
  });
});
