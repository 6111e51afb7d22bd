import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { baseRoutes, json, mockApi, renderPage } from '../testing';
import { AdminPanel } from './AdminPanel';

const entry = (id: number, action = 'challenge.update', admin = 'boss') => ({
  _id: String(id),
  time: '2026-01-10T12:00:00.000Z',
  admin,
  action,
  target: `challenge 'Web ${id}' (#${id})`,
  details: { before: { flag: '[redacted]' }, after: { flag: '[redacted]' } },
});

describe('Audit tab', () => {
  it('lists entries newest first, filters by admin and action, and pages with the cursor', async () => {
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/audit': () => json({ rows: [entry(3), entry(2)], next_cursor: '2' }),
        'GET /api/admin/audit?cursor=2': () => json({ rows: [entry(1)], next_cursor: null }),
        'GET /api/admin/audit?admin=deputy&action=site.switch': () =>
          json({ rows: [entry(9, 'site.switch', 'deputy')], next_cursor: null }),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'Audit' }));
    const table = await screen.findByRole('table', { name: 'Audit log' });
    expect(within(table).getByText("challenge 'Web 3' (#3)")).toBeInTheDocument();
    expect(within(table).getAllByText(/\[redacted\]/)).toHaveLength(2);

    await userEvent.click(screen.getByRole('button', { name: /next/i }));
    expect(await screen.findByText("challenge 'Web 1' (#1)")).toBeInTheDocument();
    expect(api.count('GET /api/admin/audit?cursor=2')).toBe(1);

    const form = screen.getByRole('form', { name: 'Audit filters' });
    await userEvent.type(within(form).getByLabelText('Admin'), 'deputy');
    await userEvent.selectOptions(within(form).getByLabelText('Action'), 'site.switch');
    await userEvent.click(within(form).getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText("challenge 'Web 9' (#9)")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText("challenge 'Web 1' (#1)")).toBeNull());
  });

  it('says when nothing was recorded', async () => {
    mockApi(baseRoutes({ 'GET /api/admin/audit': () => json({ rows: [], next_cursor: null }) }));
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'Audit' }));
    expect(await screen.findByText('No admin action recorded.')).toBeInTheDocument();
  });
});
