import type { AdminInstance } from '@ctf/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
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

  it('writes ages in minutes, then hours', () => {
    const now = Date.parse('2026-01-01T02:00:00Z');
    expect(ageText('2026-01-01T01:55:00Z', now)).toBe('5 min');
    expect(ageText('2026-01-01T00:48:00Z', now)).toBe('1 h 12 min');
  });
});
