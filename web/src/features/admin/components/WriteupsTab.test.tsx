import type { AdminWriteup } from '@ctf/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../../test/factories';
import { baseRoutes, json, mockApi, renderPage } from '../testing';
import { AdminPanel } from './AdminPanel';

afterEach(() => vi.restoreAllMocks());

const writeup = (id: number, extra: Partial<AdminWriteup> = {}): AdminWriteup => ({
  _id: String(id),
  challenge_id: '7',
  challenge: 'Hidden Cookie',
  competitor: 'Red',
  division: null,
  file: {
    name: 'red.md',
    size: 10,
    type: 'text/markdown',
    href: `/api/ctf/writeup/file?writeup_id=${id}&inline=1`,
  },
  submittedAt: '2026-01-01T12:00:00Z',
  reviewed: false,
  published: false,
  ...extra,
});

describe('Writeups tab', { timeout: 20_000 }, () => {
  it('lists writeups, filters by competitor, toggles reviewed and published, and links the ZIP', async () => {
    let rows = [writeup(1), writeup(2, { competitor: 'cat', file: undefined, url: 'https://cat.example/w' })];
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/writeups': () => json(rows),
        'GET /api/admin/writeups?competitor=cat': () => json(rows.filter((r) => r.competitor === 'cat')),
        'POST /api/admin/writeups/review': (body) => {
          const b = body as { writeup_id: string; reviewed: boolean; published: boolean };
          rows = rows.map((r) =>
            r._id === b.writeup_id ? { ...r, reviewed: b.reviewed, published: b.published } : r,
          );
          return json({ acknowledge: true, message: 'Writeup updated.' });
        },
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'Writeups' }));
    const table = await screen.findByRole('table', { name: 'Writeups' });
    const red = within(table).getByText('Red').closest('tr')!;
    expect(within(red).getByRole('link', { name: 'Open red.md' })).toHaveAttribute(
      'href',
      '/api/ctf/writeup/file?writeup_id=1&inline=1',
    );
    const cat = within(table).getByText('cat').closest('tr')!;
    expect(within(cat).getByRole('link', { name: 'https://cat.example/w' })).toHaveAttribute(
      'rel',
      'noopener noreferrer nofollow',
    );
    expect(screen.getByRole('link', { name: 'Download all (ZIP)' })).toHaveAttribute(
      'href',
      '/api/admin/writeups.zip',
    );

    await userEvent.click(within(red).getByLabelText('Published'));
    expect(api.bodyOf('POST /api/admin/writeups/review')).toEqual({
      writeup_id: '1',
      reviewed: false,
      published: true,
    });
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Writeups' })).getAllByLabelText('Published')[0],
      ).toBeChecked(),
    );

    await userEvent.type(screen.getByLabelText('Competitor'), 'cat');
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(api.count('GET /api/admin/writeups?competitor=cat')).toBe(1));
    await waitFor(() =>
      expect(within(screen.getByRole('table', { name: 'Writeups' })).queryByText('Red')).toBeNull(),
    );
  });

  it('shows a monitor the list without switches it could use', async () => {
    mockApi(baseRoutes({ 'GET /api/admin/writeups': () => json([writeup(1)]) }));
    renderPage(
      <AdminPanel />,
      '/admin/panel?tab=writeups',
      makeUser({ _id: '3', username: 'mona', role: 'monitor' }),
    );
    const table = await screen.findByRole('table', { name: 'Writeups' });
    expect(within(table).getByLabelText('Reviewed')).toBeDisabled();
    expect(within(table).getByLabelText('Published')).toBeDisabled();
  });
});
