import { UI_TEXT } from '@ctf/contract';
import { screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { baseRoutes, json, makeUser, mockApi, renderPage, useDialogSpies } from '../testing';
import { AdminPanel } from './AdminPanel';

const dialogs = useDialogSpies();
const message = () => screen.getByTestId('admin-message');

describe('AdminPanel', () => {
  it('shows the seven tabs, the site toggle and the user count without admins', async () => {
    mockApi(baseRoutes());
    renderPage(<AdminPanel />);
    for (const name of [
      'Users',
      'Teams',
      'Admins',
      'Solvers',
      'View Challenges',
      'Create Challenge',
      'Upload',
    ]) {
      expect(screen.getByRole('tab', { name })).toBeInTheDocument();
    }
    expect(await screen.findByRole('button', { name: 'Site Inactive' })).toBeInTheDocument();
    expect(await screen.findByTestId('user-count')).toHaveTextContent('Users: 2');
    expect(screen.getByRole('cell', { name: 'alice' })).toBeInTheDocument();
  });

  it('shows a Division column only while the site has divisions', async () => {
    mockApi(
      baseRoutes({
        'GET /api/admin/get_users': () =>
          json([
            makeUser({ _id: '2', username: 'alice', division: 'First-years' }),
            makeUser({ _id: '3', username: 'bob', division: null }),
          ]),
      }),
    );
    renderPage(<AdminPanel />);
    expect(await screen.findByRole('columnheader', { name: 'Division' })).toBeInTheDocument();
    // Username, Email, Team, then Division.
    const division = (name: string) =>
      within(screen.getByRole('cell', { name }).closest('tr')!).getAllByRole('cell')[3];
    expect(division('alice')).toHaveTextContent('First-years');
    expect(division('bob')).toHaveTextContent('None');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search users' }), 'first-years');
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'bob' })).toBeNull());
    expect(screen.getByRole('cell', { name: 'alice' })).toBeInTheDocument();
  });

  it('has no Division column on a site without divisions', async () => {
    mockApi(baseRoutes());
    renderPage(<AdminPanel />);
    expect(await screen.findByRole('cell', { name: 'alice' })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Division' })).toBeNull();
  });

  it('toggles the site and shows the server message in green', async () => {
    let active = false;
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/get_site_info': () => json({ activated: active }),
        'POST /api/admin/update_site_info': (body) => {
          active = (body as { activated: boolean }).activated;
          return json({ acknowledge: true, message: 'The site is now active.' });
        },
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(await screen.findByRole('button', { name: 'Site Inactive' }));
    expect(api.bodyOf('POST /api/admin/update_site_info')).toEqual({ activated: true });
    expect(await screen.findByRole('button', { name: 'Site Active' })).toBeInTheDocument();
    expect(message()).toHaveTextContent('Success: The site is now active.');
    expect(message().querySelector('.alert-success')).not.toBeNull();
  });

  it('confirms before deleting a user and shows a refusal in red', async () => {
    const api = mockApi(
      baseRoutes({
        'POST /api/admin/remove_user': () =>
          json({ acknowledge: false, message: 'You cannot remove yourself.' }, 400),
      }),
    );
    renderPage(<AdminPanel />);
    dialogs.confirm.mockReturnValueOnce(false);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete user alice' }));
    expect(dialogs.confirm).toHaveBeenCalledWith('Are you sure you want to delete this user?');
    expect(api.count('POST /api/admin/remove_user')).toBe(0);
    await userEvent.click(screen.getByRole('button', { name: 'Delete user alice' }));
    expect(api.bodyOf('POST /api/admin/remove_user')).toEqual({ user_id: '2' });
    await waitFor(() => expect(message()).toHaveTextContent('Error: You cannot remove yourself.'));
    expect(message().querySelector('.alert-danger')).not.toBeNull();
  });

  it('makes a user an admin after confirming', async () => {
    const api = mockApi(
      baseRoutes({
        'POST /api/admin/promote_admin': () =>
          json({ acknowledge: true, message: "'alice' is now an admin." }),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(await screen.findByRole('button', { name: 'Make Admin: alice' }));
    expect(dialogs.confirm).toHaveBeenCalledWith("Make 'alice' an admin? Admins manage the whole site.");
    expect(api.bodyOf('POST /api/admin/promote_admin')).toEqual({ username: 'alice' });
    await waitFor(() => expect(message()).toHaveTextContent("Success: 'alice' is now an admin."));
  });

  it("shows 'Error Occured!' on a network failure or an empty answer", async () => {
    let fail = true;
    mockApi(
      baseRoutes({
        'POST /api/admin/remove_user': () => {
          if (fail) throw new TypeError('Failed to fetch');
          return new Response('', { status: 200 });
        },
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete user bob' }));
    await waitFor(() => expect(message()).toHaveTextContent(UI_TEXT.errorOccured));
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Delete user bob' }));
    await waitFor(() => expect(message()).toHaveTextContent(`Error: ${UI_TEXT.errorOccured}`));
  });

  it('deletes teams and admins after their confirmations', async () => {
    const api = mockApi(
      baseRoutes({
        'POST /api/admin/remove_team': () =>
          json({ acknowledge: true, message: 'Team removed successfully.' }),
        'POST /api/admin/remove_admin': () =>
          json({ acknowledge: false, message: 'The last admin cannot be removed.' }, 409),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'Teams' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete team Red' }));
    expect(dialogs.confirm).toHaveBeenLastCalledWith('Are you sure you want to delete this team?');
    expect(api.bodyOf('POST /api/admin/remove_team')).toEqual({ team_id: '7' });
    await waitFor(() => expect(message()).toHaveTextContent('Team removed successfully.'));
    await userEvent.click(screen.getByRole('tab', { name: 'Admins' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete admin boss' }));
    expect(dialogs.confirm).toHaveBeenLastCalledWith('Are you sure you want to delete this admin?');
    expect(api.bodyOf('POST /api/admin/remove_admin')).toEqual({ username: 'boss' });
    await waitFor(() => expect(message()).toHaveTextContent('The last admin cannot be removed.'));
  });

  it('lists the solvers of each challenge', async () => {
    mockApi(baseRoutes());
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'Solvers' }));
    const entries = await screen.findAllByTestId('solvers-entry');
    expect(entries[0]).toHaveTextContent('Challenge 1');
    expect(entries[0]).toHaveTextContent('alice (first blood), bob');
    expect(within(entries[0]!).getByTestId('first-blood-solver')).toHaveTextContent('alice');
    expect(entries[1]).toHaveTextContent('No solvers yet');
  });
});
