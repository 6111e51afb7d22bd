import type { AdminAward } from '@ctf/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { baseRoutes, json, mockApi, renderPage } from '../testing';
import { AdminPanel } from './AdminPanel';

afterEach(() => vi.restoreAllMocks());

const award = (id: number, extra: Partial<AdminAward> = {}): AdminAward => ({
  _id: String(id),
  user_id: '2',
  user: 'alice',
  team_id: null,
  team: null,
  points: 50,
  reason: 'Best writeup',
  time: '2026-01-01T12:00:00Z',
  ...extra,
});

describe('Awards tab', { timeout: 20_000 }, () => {
  it('gives a team an award from the picker, lists it, and deletes one after a confirmation', async () => {
    let rows: AdminAward[] = [award(1)];
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/awards': () => json(rows),
        'POST /api/admin/awards': (body) => {
          const b = body as { team_id: string; points: number; reason: string };
          rows = [award(2, { ...b, user_id: null, user: null, team: 'Red' }), ...rows];
          return json({ _id: '2' });
        },
        'POST /api/admin/awards/delete': (body) => {
          rows = rows.filter((r) => r._id !== (body as { award_id: string }).award_id);
          return json({ acknowledge: true, message: 'Award deleted' });
        },
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'Awards' }));
    const table = await screen.findByRole('table', { name: 'Awards' });
    expect(within(table).getByText('alice').closest('tr')).toHaveTextContent('+50');

    const form = screen.getByRole('form', { name: 'Give an award' });
    await userEvent.selectOptions(within(form).getByLabelText('To'), 'team');
    await userEvent.selectOptions(await within(form).findByLabelText('Team'), 'Red');
    await userEvent.type(within(form).getByLabelText('Points (negative for a penalty)'), '-20');
    await userEvent.type(within(form).getByLabelText('Reason (shown to the player)'), 'Shared a flag');
    await userEvent.click(within(form).getByRole('button', { name: 'Give award' }));
    await waitFor(() =>
      expect(api.bodyOf('POST /api/admin/awards')).toEqual({
        team_id: '7',
        points: -20,
        reason: 'Shared a flag',
      }),
    );
    expect(await screen.findByText('Award given')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('table', { name: 'Awards' })).toHaveTextContent('Team Red'));
    const red = within(screen.getByRole('table', { name: 'Awards' }))
      .getByText('Team Red')
      .closest('tr')!;
    expect(red).toHaveTextContent('-20');
    expect(red).toHaveTextContent('Shared a flag');

    // Cancelled: nothing sent; confirmed: deleted.
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const del = screen.getByRole('button', { name: 'Delete award Best writeup to alice' });
    await userEvent.click(del);
    expect(api.bodyOf('POST /api/admin/awards/delete')).toBeUndefined();
    await userEvent.click(del);
    expect(confirm).toHaveBeenLastCalledWith('Are you sure you want to delete this award?');
    expect(api.bodyOf('POST /api/admin/awards/delete')).toEqual({ award_id: '1' });
    await waitFor(() => expect(screen.queryByText('Best writeup')).toBeNull());
  });
});
