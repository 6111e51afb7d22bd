import { MESSAGES, UI_TEXT, type ChallengeDetail, type User } from '@ctf/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, makeUser, mockApi, renderPage, type Handler } from '../testing';
import { ChallengePage } from './ChallengePage';

afterEach(() => vi.unstubAllGlobals());

const detail: ChallengeDetail = {
  _id: '5',
  name: 'Hidden Cookie',
  category: 'Web Exploitation',
  difficulty: 'Medium',
  description:
    '<p>Find the <b>cookie</b>.</p><img src="x" onerror="window.__pwned = 1"><script>window.__pwned = 2</script>',
  rating: 3.25,
  points: 200,
  scoring_type: 'static',
  written_by: 'Mallory',
  hlinks: ['cookie jar.zip'],
  user_completions: 4,
  first_blood: null,
  hints: [],
  attempts_left: null,
};
const solvedUser = (extra: Partial<User> = {}) =>
  makeUser({ completions: [{ id: '5', name: 'Hidden Cookie', time: '2025-10-15T01:00:00Z' }], ...extra });

function serve(user: User, routes: Record<string, Handler> = {}) {
  return mockApi({
    'POST /api/ctf/challenge': () => json(detail),
    'GET /api/user/info': () => json(user),
    'GET /api/info/completions': () => json({ userCompletions: [], teamCompletions: [] }),
    ...routes,
  });
}

async function submitFlag(flag = 'flag_x') {
  await userEvent.type(await screen.findByLabelText('Flag'), flag);
  await userEvent.click(screen.getByRole('button', { name: 'Submit Flag' }));
  return within(screen.getByTestId('flag-message')).findByRole('alert');
}

// Rendering whole pages is slow when every workspace's tests run at once.
describe('ChallengePage', { timeout: 20_000 }, () => {
  it('shows the detail with sanitised HTML, the facts and download links', async () => {
    const api = serve(makeUser());
    renderPage(<ChallengePage />, '/challenge?id=5');
    expect(await screen.findByRole('heading', { level: 1, name: 'Hidden Cookie' })).toBeInTheDocument();
    expect(api.calls.find((c) => c.key === 'POST /api/ctf/challenge')?.body).toEqual({ challenge_id: '5' });
    const description = screen.getByTestId('challenge-description');
    expect(description.querySelector('b')?.textContent).toBe('cookie');
    expect(description.innerHTML).not.toContain('onerror');
    expect(description.querySelector('script')).toBeNull();
    expect(screen.getByText('Web Exploitation')).toBeInTheDocument();
    expect(screen.getByText('Medium')).toBeInTheDocument();
    expect(screen.getByText('Mallory')).toBeInTheDocument();
    expect(screen.getByText('3.3 / 5')).toBeInTheDocument();
    expect(screen.getByText('200')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'cookie jar.zip' })).toHaveAttribute(
      'href',
      '/api/ctf/download/cookie%20jar.zip',
    );
    expect(screen.getByLabelText('Flag')).toBeRequired();
    expect(screen.queryByText(/rate this challenge/i)).toBeNull();
  });

  it("shows 'Correct Flag!' in an info alert, then the rating prompt, refreshing what a solve changed", async () => {
    let solved = false;
    const api = serve(makeUser(), {
      'GET /api/user/info': () => json(solved ? solvedUser() : makeUser()),
      'POST /api/ctf/submit-flag': () => {
        solved = true;
        return json({ message: MESSAGES.correctFlag });
      },
    });
    renderPage(<ChallengePage />, '/challenge?id=5');
    const alert = await submitFlag('  flag_cookie ');
    expect(alert).toHaveTextContent(MESSAGES.correctFlag);
    expect(alert).toHaveClass('alert-info');
    expect(api.calls.find((c) => c.key === 'POST /api/ctf/submit-flag')?.body).toEqual({
      flag: '  flag_cookie ',
      challenge_id: '5',
    });
    expect(await screen.findByText('How would you rate this challenge?')).toBeInTheDocument();
    expect(api.count('POST /api/ctf/challenge')).toBe(2);
    expect(screen.getByText('Solved')).toBeInTheDocument();
  });

  it('shows any other message in a danger alert', async () => {
    serve(makeUser(), { 'POST /api/ctf/submit-flag': () => json({ message: MESSAGES.incorrectFlag }, 400) });
    renderPage(<ChallengePage />, '/challenge?id=5');
    const alert = await submitFlag();
    expect(alert).toHaveTextContent(MESSAGES.incorrectFlag);
    expect(alert).toHaveClass('alert-danger');
  });

  it('shows a rate-limit message as it came, in danger', async () => {
    serve(makeUser(), {
      'POST /api/ctf/submit-flag': () => json({ message: 'Too many wrong flags. Wait a minute.' }, 429),
    });
    renderPage(<ChallengePage />, '/challenge?id=5');
    const alert = await submitFlag();
    expect(alert).toHaveTextContent('Too many wrong flags. Wait a minute.');
    expect(alert).toHaveClass('alert-danger');
  });

  it("reads an empty response as 'Incorrect Flag!'", async () => {
    serve(makeUser(), { 'POST /api/ctf/submit-flag': () => new Response('', { status: 200 }) });
    renderPage(<ChallengePage />, '/challenge?id=5');
    const alert = await submitFlag();
    expect(alert).toHaveTextContent(MESSAGES.incorrectFlag);
    expect(alert).toHaveClass('alert-danger');
  });

  it("reads a network failure as 'Error Submitting Flag.'", async () => {
    serve(makeUser(), {
      'POST /api/ctf/submit-flag': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    renderPage(<ChallengePage />, '/challenge?id=5');
    const alert = await submitFlag();
    expect(alert).toHaveTextContent(UI_TEXT.errorSubmittingFlag);
    expect(alert).toHaveClass('alert-danger');
  });

  it('asks for a rating when none is chosen, and sends the chosen one as an integer', async () => {
    let rated = false;
    const api = serve(solvedUser(), {
      'GET /api/user/info': () => json(rated ? solvedUser({ user_rates: ['5'] }) : solvedUser()),
      'POST /api/ctf/rate-challenge': () => {
        rated = true;
        return json({ message: 'Rating submitted successfully!' });
      },
    });
    renderPage(<ChallengePage />, '/challenge?id=5');
    await userEvent.click(await screen.findByRole('button', { name: 'Submit Rating' }));
    expect(within(screen.getByTestId('rating-message')).getByRole('alert')).toHaveTextContent(
      UI_TEXT.selectRating,
    );
    expect(api.count('POST /api/ctf/rate-challenge')).toBe(0);
    await userEvent.click(screen.getByLabelText('4 Very Good'));
    await userEvent.click(screen.getByRole('button', { name: 'Submit Rating' }));
    expect(await screen.findByTestId('rating-thanks')).toHaveTextContent(
      'Thank you for rating this challenge!',
    );
    expect(api.calls.find((c) => c.key === 'POST /api/ctf/rate-challenge')?.body).toEqual({
      challenge_id: '5',
      rating: 4,
    });
    expect(screen.queryByRole('button', { name: 'Submit Rating' })).toBeNull();
    const message = within(screen.getByTestId('rating-message')).getByRole('alert');
    expect(message).toHaveTextContent('Rating submitted successfully!');
    expect(message).toHaveClass('alert-success');
  });

  it("shows a rating error in danger, and 'Error submitting rating' when the network fails", async () => {
    let fail: 'server' | 'network' = 'server';
    serve(solvedUser(), {
      'POST /api/ctf/rate-challenge': () =>
        fail === 'server'
          ? json({ message: 'Error: you already rated this challenge' }, 409)
          : Promise.reject(new TypeError('Failed to fetch')),
    });
    renderPage(<ChallengePage />, '/challenge?id=5');
    await userEvent.click(await screen.findByLabelText('2 Fair'));
    await userEvent.click(screen.getByRole('button', { name: 'Submit Rating' }));
    const area = screen.getByTestId('rating-message');
    await waitFor(() =>
      expect(within(area).getByRole('alert')).toHaveTextContent('Error: you already rated this challenge'),
    );
    expect(within(area).getByRole('alert')).toHaveClass('alert-danger');
    fail = 'network';
    await userEvent.click(screen.getByRole('button', { name: 'Submit Rating' }));
    await waitFor(() =>
      expect(within(area).getByRole('alert')).toHaveTextContent(UI_TEXT.errorRatingChallenge),
    );
    expect(within(area).getByRole('alert')).toHaveClass('alert-danger');
  });

  it('shows the thank-you panel instead of the form once rated, and the team icon to members', async () => {
    serve(solvedUser({ user_rates: ['5'], team: 'Red', team_id: '3' }), {
      'GET /api/info/completions': () =>
        json({
          userCompletions: [],
          teamCompletions: [
            {
              id: '5',
              memberName: 'alice',
              points: 200,
              name: 'Hidden Cookie',
              time: '2025-10-15T01:00:00Z',
            },
          ],
        }),
    });
    renderPage(<ChallengePage />, '/challenge?id=5');
    expect(await screen.findByTestId('rating-thanks')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit Rating' })).toBeNull();
    expect(await screen.findByText('Team completed')).toBeInTheDocument();
  });

  it("shows the server's refusal, e.g. for an unknown or inactive challenge", async () => {
    serve(makeUser(), { 'POST /api/ctf/challenge': () => json({ message: 'Challenge not found' }, 404) });
    renderPage(<ChallengePage />, '/challenge?id=99');
    expect(await screen.findByRole('alert')).toHaveTextContent('Challenge not found');
    expect(screen.queryByLabelText('Flag')).toBeNull();
  });

  it('asks to pick a challenge when the address names none', async () => {
    const api = serve(makeUser());
    renderPage(<ChallengePage />, '/challenge');
    expect(await screen.findByRole('alert')).toHaveTextContent('No challenge was chosen');
    expect(api.count('POST /api/ctf/challenge')).toBe(0);
  });

  it("offers the competitor its own per-team flag only when the challenge's detail carries one", async () => {
    const own = 'flag{service_base_0123456789abcdef}';
    serve(makeUser(), { 'POST /api/ctf/challenge': () => json({ ...detail, team_flag: own }) });
    const first = renderPage(<ChallengePage />, '/challenge?id=5');
    const panel = await screen.findByTestId('team-flag-panel');
    expect(within(panel).getByRole('heading', { name: 'Your own flag' })).toBeInTheDocument();
    expect(within(panel).getByTestId('team-flag')).toHaveTextContent(own);
    expect(screen.getByLabelText('Flag')).toBeInTheDocument();
    first.unmount();

    serve(makeUser());
    renderPage(<ChallengePage />, '/challenge?id=5');
    expect(await screen.findByRole('heading', { level: 1, name: 'Hidden Cookie' })).toBeInTheDocument();
    expect(screen.queryByTestId('team-flag-panel')).toBeNull();
    expect(document.body.textContent).not.toContain('flag{service_base');
  });
});
