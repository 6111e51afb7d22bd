import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, makeUser, mockApi, renderPage } from '../../features/teams/testing';
import ProfileRoute from './profile';

afterEach(() => vi.unstubAllGlobals());

function serve(authorized = true, avatarUrl = 'https://avatars.example.org/alice.png') {
  return mockApi({
    'GET /api/authenticated': () =>
      json({ message: authorized ? 'Authorized' : 'Unauthorized' }, authorized ? 200 : 401),
    'GET /api/user/info': () => json(authorized ? makeUser({ avatarUrl, team: 'Rooks' }) : null),
    'GET /api/team/info': () => json(null),
    'GET /api/team/list': () => json([]),
  });
}

describe('/profile', () => {
  it('shows avatar, username and the way to the team page, which has the way back', async () => {
    serve();
    renderPage(<ProfileRoute />, '/profile');
    expect(await screen.findByRole('heading', { name: 'alice' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: "alice's avatar" })).toHaveAttribute(
      'src',
      'https://avatars.example.org/alice.png',
    );
    expect(screen.getByText('Team: Rooks')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Go to Team Page' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/profile\?mode=1$/);
    expect(await screen.findByRole('button', { name: 'Create Team' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Go to Profile Page' }));
    expect(await screen.findByRole('heading', { name: 'alice' })).toBeInTheDocument();
  });

  it('lists practice solves apart, as not scored, when there are some', async () => {
    mockApi({
      'GET /api/authenticated': () => json({ message: 'Authorized' }),
      'GET /api/user/info': () => json(makeUser()),
      'GET /api/user/practice': () => json([{ id: '4', name: 'Warm-up', time: '2026-01-10T14:00:00.000Z' }]),
      'GET /api/info/completions': () => json({ user_completions: [], team_completions: [] }),
    });
    renderPage(<ProfileRoute />, '/profile');
    expect(await screen.findByRole('heading', { name: 'Practice solves' })).toBeInTheDocument();
    expect(screen.getByText('Warm-up')).toBeInTheDocument();
    expect(screen.getByText('Solved after the event ended: not scored.')).toBeInTheDocument();
  });

  it('shows a letter avatar when the provider gave none', async () => {
    serve(true, '');
    renderPage(<ProfileRoute />, '/profile');
    expect(await screen.findByRole('img', { name: "alice's avatar" })).toHaveTextContent('A');
  });

  it.each(['/profile?mode=0', '/profile?mode=2', '/profile?mode=team', '/profile?mode='])(
    '%s shows the profile page',
    async (url) => {
      serve();
      renderPage(<ProfileRoute />, url);
      expect(await screen.findByRole('button', { name: 'Go to Team Page' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Go to Profile Page' })).toBeNull();
    },
  );

  it('sends a visitor to /login', async () => {
    serve(false);
    renderPage(<ProfileRoute />, '/profile?mode=1');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
    expect(screen.queryByRole('button', { name: 'Create Team' })).toBeNull();
  });
});
