import { MESSAGES, UI_TEXT, type Team, type TeamListEntry, type User } from '@ctf/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, makeTeam, makeUser, mockApi, renderPage, type Handler } from '../testing';
import { TeamPage } from './TeamPage';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const list: TeamListEntry[] = [
  { name: 'Alpha', memberCount: 1, spotsLeft: 3 },
  { name: 'Beta', memberCount: 3, spotsLeft: 1 },
];

function serve(user: User, team: Team | null, routes: Record<string, Handler> = {}) {
  return mockApi({
    'GET /api/user/info': () => json(user),
    'GET /api/team/info': () => json(team),
    'GET /api/team/list': () => json(list),
    'GET /api/info/completions': () => json({ userCompletions: [], teamCompletions: [] }),
    'GET /api/info/leaderboard': () => json([]),
    ...routes,
  });
}

const message = () => screen.findByTestId('team-message');

describe('TeamPage without a team', () => {
  it('offers creation and a join select whose options follow docs/product.md', async () => {
    serve(makeUser(), null);
    renderPage(<TeamPage />);
    expect(await screen.findByRole('button', { name: 'Create Team' })).toBeInTheDocument();
    expect(screen.getByLabelText('Team name')).toBeRequired();
    const select = await screen.findByLabelText('Team to join');
    const options = within(select)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual([
      UI_TEXT.selectTeam,
      'Alpha (1/4 members, 3 spots left)',
      'Beta (3/4 members, 1 spot left)',
    ]);
    expect(screen.getByRole('button', { name: 'Request Join Team' })).toBeDisabled();
    expect(screen.getByText(/Points you scored before joining a team stay with you/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to Profile Page' })).toBeInTheDocument();
  });

  it('sends a join request and shows the answer in green', async () => {
    const api = serve(makeUser(), null, {
      'POST /api/team/request': () => json({ message: MESSAGES.requestSent }),
    });
    renderPage(<TeamPage />);
    await userEvent.selectOptions(await screen.findByLabelText('Team to join'), 'Beta');
    const button = screen.getByRole('button', { name: 'Request Join Team' });
    expect(button).toBeEnabled();
    await userEvent.click(button);
    const shown = await message();
    expect(shown).toHaveTextContent(MESSAGES.requestSent);
    expect(shown).toHaveClass('alert-success');
    expect(shown).toHaveAttribute('role', 'status');
    expect(api.bodyOf('POST /api/team/request')).toEqual({ team_name: 'Beta' });
  });

  it('shows a refused request in red', async () => {
    serve(makeUser(), null, {
      'POST /api/team/request': () => json({ message: 'Team is full', code: 'team_full' }, 409),
    });
    renderPage(<TeamPage />);
    await userEvent.selectOptions(await screen.findByLabelText('Team to join'), 'Alpha');
    await userEvent.click(screen.getByRole('button', { name: 'Request Join Team' }));
    const shown = await message();
    expect(shown).toHaveTextContent('Team is full');
    expect(shown).toHaveClass('alert-danger');
    expect(shown).toHaveAttribute('role', 'alert');
  });

  it('says so when no team can be joined', async () => {
    serve(makeUser(), null, { 'GET /api/team/list': () => json([]) });
    renderPage(<TeamPage />);
    expect(await screen.findByText(UI_TEXT.noTeamsToJoin)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Request Join Team' })).toBeNull();
  });

  it('creates a team, shows green and goes to /profile?mode=1 after 300 ms', async () => {
    let created = false;
    const api = serve(makeUser(), null, {
      'GET /api/team/info': () => json(created ? makeTeam({ members: ['alice'], join_requests: [] }) : null),
      'POST /api/team/create': () => {
        created = true;
        return json({ message: MESSAGES.teamCreated });
      },
    });
    renderPage(<TeamPage />, '/profile?mode=1&from=home');
    await userEvent.type(await screen.findByLabelText('Team name'), 'Rooks');
    await userEvent.click(screen.getByRole('button', { name: 'Create Team' }));
    const shown = await message();
    expect(shown).toHaveTextContent(MESSAGES.teamCreated);
    expect(shown).toHaveClass('alert-success');
    expect(api.bodyOf('POST /api/team/create')).toEqual({ team_name: 'Rooks' });
    expect(screen.getByTestId('location')).toHaveTextContent('/profile?mode=1&from=home');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/profile\?mode=1$/));
    expect(await screen.findByRole('heading', { name: 'Team: Rooks' })).toBeInTheDocument();
  });

  it('shows a refused creation in red and stays', async () => {
    serve(makeUser(), null, {
      'POST /api/team/create': () => json({ message: 'A team with this name already exists' }, 409),
    });
    renderPage(<TeamPage />, '/profile?mode=1&stay=1');
    await userEvent.type(await screen.findByLabelText('Team name'), 'Taken');
    await userEvent.click(screen.getByRole('button', { name: 'Create Team' }));
    expect(await message()).toHaveClass('alert-danger');
    await new Promise((r) => setTimeout(r, 400));
    expect(screen.getByTestId('location')).toHaveTextContent('/profile?mode=1&stay=1');
  });

  it('only logs a network failure', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    serve(makeUser(), null, {
      'POST /api/team/create': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderPage(<TeamPage />);
    await userEvent.type(await screen.findByLabelText('Team name'), 'Rooks');
    await userEvent.click(screen.getByRole('button', { name: 'Create Team' }));
    await waitFor(() => expect(error).toHaveBeenCalled());
    expect(screen.queryByTestId('team-message')).toBeNull();
  });
});

describe('TeamPage as the leader', () => {
  it('shows the team, the leader, members with Remove (disabled for the leader) and requests', async () => {
    serve(makeUser({ team: 'Rooks', team_id: '7', is_leader: true }), makeTeam());
    renderPage(<TeamPage />);
    expect(await screen.findByRole('heading', { name: 'Team: Rooks' })).toBeInTheDocument();
    expect(screen.getByText('Team Leader:')).toHaveTextContent('Team Leader: alice');
    expect(screen.getByLabelText('New team name')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Leave Team' })).toBeInTheDocument();
    const members = within(screen.getByRole('list', { name: 'Members' })).getAllByRole('listitem');
    expect(members.map((m) => m.textContent)).toEqual(['aliceLeaderRemove', 'bobRemove']);
    expect(screen.getByRole('button', { name: 'Remove alice' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Remove bob' })).toBeEnabled();
    const requests = within(screen.getByRole('list', { name: 'Join requests' })).getAllByRole('listitem');
    expect(requests).toHaveLength(1);
    expect(within(requests[0]!).getByRole('button', { name: /Accept Request/ })).toHaveTextContent(
      'Accept Request',
    );
  });

  it('says when there are no requests', async () => {
    serve(makeUser(), makeTeam({ join_requests: [] }));
    renderPage(<TeamPage />);
    expect(await screen.findByText(UI_TEXT.noRequests)).toBeInTheDocument();
  });

  it('says when there are no members', async () => {
    serve(makeUser(), makeTeam({ members: [], memberCount: 0, spotsLeft: 4 }));
    renderPage(<TeamPage />);
    expect(await screen.findByText(UI_TEXT.noMembers)).toBeInTheDocument();
  });

  it('accepts a request after confirmation and reloads the team 200 ms later', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const api = serve(makeUser(), makeTeam(), {
      'POST /api/team/add-member': () => json({ message: 'Member added to the team.' }),
    });
    renderPage(<TeamPage />);
    await userEvent.click(await screen.findByRole('button', { name: /Accept Request/ }));
    expect(confirm).toHaveBeenCalledWith(UI_TEXT.confirmAccept);
    expect(api.bodyOf('POST /api/team/add-member')).toEqual({ request_id: '31', checksum: 'sum-31' });
    const shown = await message();
    expect(shown).toHaveTextContent('Member added to the team.');
    expect(shown).toHaveClass('alert-danger');
    const before = api.count('GET /api/team/info');
    await waitFor(() => expect(api.count('GET /api/team/info')).toBeGreaterThan(before));
  });

  it('does nothing when the accept confirmation is dismissed', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    const api = serve(makeUser(), makeTeam());
    renderPage(<TeamPage />);
    await userEvent.click(await screen.findByRole('button', { name: /Accept Request/ }));
    expect(api.count('POST /api/team/add-member')).toBe(0);
  });

  it("shows 'Error Adding Member!' for an empty answer to accept", async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    serve(makeUser(), makeTeam(), { 'POST /api/team/add-member': () => new Response('', { status: 502 }) });
    renderPage(<TeamPage />);
    await userEvent.click(await screen.findByRole('button', { name: /Accept Request/ }));
    const shown = await message();
    expect(shown).toHaveTextContent(UI_TEXT.errorAddingMember);
    expect(shown).toHaveClass('alert-danger');
  });

  it('leaves after confirmation with the team name', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const api = serve(makeUser(), makeTeam(), {
      'POST /api/team/replace-leader': () => json({ message: 'You left the team.' }),
    });
    renderPage(<TeamPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Leave Team' }));
    expect(confirm).toHaveBeenCalledWith(UI_TEXT.confirmLeave);
    expect(api.bodyOf('POST /api/team/replace-leader')).toEqual({ team_data: { name: 'Rooks' } });
    expect(await message()).toHaveTextContent('You left the team.');
  });

  it("does not leave when dismissed, and shows 'Error Adding Member!' for an empty leave answer", async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const api = serve(makeUser(), makeTeam(), {
      'POST /api/team/replace-leader': () => new Response('', { status: 200 }),
    });
    renderPage(<TeamPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Leave Team' }));
    expect(api.count('POST /api/team/replace-leader')).toBe(0);
    confirm.mockReturnValue(true);
    await userEvent.click(screen.getByRole('button', { name: 'Leave Team' }));
    expect(await message()).toHaveTextContent(UI_TEXT.errorAddingMember);
  });

  it("removes a member, and shows 'Error Removing Member!' for an empty answer", async () => {
    let empty = false;
    const api = serve(makeUser(), makeTeam(), {
      'POST /api/team/remove-member': () =>
        empty ? new Response('', { status: 500 }) : json({ message: 'Member removed from the team.' }),
    });
    renderPage(<TeamPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove bob' }));
    expect(api.bodyOf('POST /api/team/remove-member')).toEqual({ member_username: 'bob' });
    expect(await message()).toHaveTextContent('Member removed from the team.');
    empty = true;
    await userEvent.click(screen.getByRole('button', { name: 'Remove bob' }));
    await waitFor(() =>
      expect(screen.getByTestId('team-message')).toHaveTextContent(UI_TEXT.errorRemovingMember),
    );
  });

  it('renames: a message containing success is green, a refusal red', async () => {
    let taken = false;
    const api = serve(makeUser(), makeTeam(), {
      'POST /api/team/update': () =>
        taken
          ? json({ message: 'A team with this name already exists' }, 409)
          : json({ message: MESSAGES.teamUpdated }),
    });
    renderPage(<TeamPage />);
    await userEvent.type(await screen.findByLabelText('New team name'), 'Bishops');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(api.bodyOf('POST /api/team/update')).toEqual({ team_name: 'Bishops' });
    const shown = await message();
    expect(shown).toHaveTextContent(MESSAGES.teamUpdated);
    expect(shown).toHaveClass('alert-success');
    taken = true;
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(screen.getByTestId('team-message')).toHaveClass('alert-danger'));
  });
});

describe('TeamPage as a member', () => {
  it('is read-only: name, leader and members', async () => {
    serve(makeUser({ username: 'bob', team: 'Rooks', team_id: '7' }), makeTeam({ join_requests: [] }));
    renderPage(<TeamPage />);
    expect(await screen.findByRole('heading', { name: 'Team: Rooks' })).toBeInTheDocument();
    expect(screen.getByText('Team Leader:')).toHaveTextContent('Team Leader: alice');
    const members = within(screen.getByRole('list', { name: 'Members' })).getAllByRole('listitem');
    expect(members.map((m) => m.textContent)).toEqual(['aliceLeader', 'bob']);
    expect(screen.queryByLabelText('New team name')).toBeNull();
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Go to Profile Page']);
  });

  it("lists the team's awards with their points and reasons, and no Awards section without any", async () => {
    const awards = [
      { points: 50, reason: 'Best writeup', time: '2026-01-01T12:00:00Z' },
      { points: -20, reason: 'Shared a flag', time: '2026-01-01T13:00:00Z' },
    ];
    serve(
      makeUser({ username: 'bob', team: 'Rooks', team_id: '7' }),
      makeTeam({ join_requests: [], awards }),
    );
    const { unmount } = renderPage(<TeamPage />);
    const section = await screen.findByRole('region', { name: 'Awards' });
    expect(
      within(section)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringMatching(/^\+50 pointsBest writeup/),
      expect.stringMatching(/^-20 pointsShared a flag/),
    ]);
    unmount();
    serve(makeUser({ username: 'bob', team: 'Rooks', team_id: '7' }), makeTeam({ join_requests: [] }));
    renderPage(<TeamPage />);
    expect(await screen.findByRole('heading', { name: 'Team: Rooks' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Awards' })).toBeNull();
  });

  it('goes back to the profile page', async () => {
    serve(makeUser({ username: 'bob' }), makeTeam());
    renderPage(<TeamPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Go to Profile Page' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/profile$/);
  });
});
