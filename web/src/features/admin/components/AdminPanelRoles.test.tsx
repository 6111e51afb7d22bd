import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PANEL_SECTIONS } from '../panel-registry';
import { baseRoutes, json, makeUser, mockApi, renderPage, useDialogSpies } from '../testing';
import { AdminPanel } from './AdminPanel';

useDialogSpies();

const ALL_TABS = PANEL_SECTIONS.flatMap((s) => s.tabs.map((t) => t.title));
const tabNames = () => screen.getAllByRole('tab').map((t) => t.textContent);
const monitor = makeUser({ _id: '5', username: 'watcher', role: 'monitor', email: '' });
const author = makeUser({ _id: '6', username: 'writer', role: 'author', email: '' });

describe('AdminPanel sections, tab URLs and roles', () => {
  it('groups every tab of an admin into named sections', () => {
    mockApi(baseRoutes());
    renderPage(<AdminPanel />);
    expect(tabNames()).toEqual(ALL_TABS);
    for (const title of ['People', 'Challenges', 'Event', 'Integrity'])
      expect(screen.getByRole('group', { name: title })).toBeInTheDocument();
    expect(
      within(screen.getByRole('group', { name: 'People' })).getByRole('tab', { name: 'Users' }),
    ).toHaveAttribute('aria-selected', 'true');
  });

  it('opens the tab the URL names, and a click puts the tab in the URL', async () => {
    mockApi(baseRoutes());
    renderPage(<AdminPanel />, '/admin/panel?tab=teams');
    expect(screen.getByRole('tab', { name: 'Teams' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('cell', { name: 'Red' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Admins' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/admin/panel?tab=admins');
    expect(screen.getByRole('tab', { name: 'Admins' })).toHaveAttribute('aria-selected', 'true');
  });

  it('falls back to the first tab for a tab the URL names that the role may not open', () => {
    mockApi(baseRoutes());
    renderPage(<AdminPanel />, '/admin/panel?tab=settings', author);
    expect(screen.getByRole('tab', { name: 'View Challenges' })).toHaveAttribute('aria-selected', 'true');
  });

  it('shows a monitor the tabs about play, without a button that changes anything', async () => {
    const api = mockApi(baseRoutes({ 'GET /api/admin/instances': () => json([]) }));
    renderPage(<AdminPanel />, '/admin/panel', monitor);
    expect(tabNames()).toEqual([
      'Users',
      'Teams',
      'Admins',
      'Awards',
      'Solvers',
      'Announcements',
      'Instances',
      'Writeups',
      'Submissions',
      'Integrity',
      'Audit',
    ]);
    expect(await screen.findByRole('cell', { name: 'alice' })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Email' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Make Admin|Delete|Hide|Ban/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: /Staff role/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Site (In)?[Aa]ctive/ })).not.toBeInTheDocument();
    // The exports, without the freeze's form.
    expect(screen.getAllByRole('link', { name: /CSV|JSON/ }).length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: /freeze/i })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Teams' }));
    expect(await screen.findByRole('cell', { name: '1/4' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete|Hide|Ban/ })).not.toBeInTheDocument();
    // Nothing it may not read was asked for.
    for (const call of [
      'GET /api/admin/setup',
      'GET /api/admin/get_site_info',
      'GET /api/admin/ctf/fetch_challenges',
    ])
      expect(api.count(call), call).toBe(0);
  });

  it('shows an author the challenge tabs and the submission log only', () => {
    mockApi(baseRoutes());
    renderPage(<AdminPanel />, '/admin/panel', author);
    expect(tabNames()).toEqual([
      'View Challenges',
      'Create Challenge',
      'Upload',
      'Import / Export',
      'Submissions',
    ]);
    expect(screen.queryByRole('group', { name: 'People' })).not.toBeInTheDocument();
  });

  it('shows a non-admin the submission log without the submitted text or its search', async () => {
    mockApi(
      baseRoutes({
        'GET /api/admin/submissions': () =>
          json({
            rows: [
              {
                _id: '1',
                time: '2026-01-01T12:00:00Z',
                username: 'alice',
                team: 'None',
                challenge: 'Challenge 1',
                result: 'wrong',
                address: '203.0.113.9',
              },
            ],
            next_cursor: null,
          }),
      }),
    );
    renderPage(<AdminPanel />, '/admin/panel?tab=submissions', author);
    expect(await screen.findByRole('cell', { name: '203.0.113.9' })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Submitted' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Text contains')).not.toBeInTheDocument();
    expect(screen.getByLabelText('User')).toBeInTheDocument();
  });

  it("sets a user's staff role from the Users tab (admins only)", async () => {
    const api = mockApi(
      baseRoutes({
        'POST /api/admin/set_role': () => json({ acknowledge: true, message: "'alice' is now a monitor." }),
      }),
    );
    renderPage(<AdminPanel />);
    const select = await screen.findByRole('combobox', { name: 'Staff role: alice' });
    expect(select).toHaveValue('player');
    await userEvent.selectOptions(select, 'monitor');
    await waitFor(() =>
      expect(api.bodyOf('POST /api/admin/set_role')).toEqual({ user_id: '2', role: 'monitor' }),
    );
    expect(await screen.findByText("'alice' is now a monitor.")).toBeInTheDocument();
  });

  it('marks a monitor or author as competing from the Users tab; players always compete', async () => {
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/get_users': () =>
          json([
            { ...makeUser({ _id: '2', username: 'alice' }), competing: false },
            { ...makeUser({ _id: '3', username: 'wren', role: 'author' }), competing: false },
          ]),
        'POST /api/admin/set_competing': () =>
          json({ acknowledge: true, message: "'wren' now competes: their solves count in public." }),
      }),
    );
    renderPage(<AdminPanel />);
    const toggle = await screen.findByRole('checkbox', { name: 'Competing: wren' });
    expect(toggle).not.toBeChecked();
    expect(screen.queryByRole('checkbox', { name: 'Competing: alice' })).not.toBeInTheDocument();
    await userEvent.click(toggle);
    await waitFor(() =>
      expect(api.bodyOf('POST /api/admin/set_competing')).toEqual({ user_id: '3', competing: true }),
    );
    expect(await screen.findByText("'wren' now competes: their solves count in public.")).toBeInTheDocument();
  });

  it("lets an admin name a challenge's owners when editing it (owner_ids)", async () => {
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/get_users': () =>
          json([
            { ...makeUser({ _id: '2', username: 'alice' }), competing: false },
            { ...makeUser({ _id: '3', username: 'wren', role: 'author' }), competing: false },
          ]),
        'POST /api/admin/ctf/update_challenge': () => json({ acknowledge: true, message: 'saved' }),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'View Challenges' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Challenge 1' }));
    const owners = screen.getByRole('group', { name: 'Owners of Challenge 1' });
    // Authors and admins are offered; a player is not.
    expect(within(owners).queryByLabelText('alice (player)')).not.toBeInTheDocument();
    await userEvent.click(await within(owners).findByLabelText('wren (author)'));
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(api.bodyOf('POST /api/admin/ctf/update_challenge')).toMatchObject({ owner_ids: ['3'] }),
    );
  });
});
