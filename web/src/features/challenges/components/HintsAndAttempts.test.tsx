import { MESSAGES, type ChallengeDetail } from '@ctf/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, makeUser, mockApi, renderPage } from '../testing';
import { ChallengePage } from './ChallengePage';

const base: ChallengeDetail = {
  _id: '5',
  name: 'Hinted',
  category: 'General',
  difficulty: 'Easy',
  description: '<p>x</p>',
  rating: 0,
  points: 100,
  scoring_type: 'static',
  written_by: 'A',
  hlinks: [],
  user_completions: 0,
  first_blood: null,
  hints: [
    {
      _id: '1',
      title: 'Nudge',
      cost: 0,
      unlocked: true,
      content: '<p>Look <img src=x onerror="window.__p=1">up</p>',
    },
    { _id: '2', title: 'Big one', cost: 30, unlocked: false },
  ],
  attempts_left: 2,
};

let confirm: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe('hints and the attempt limit on the challenge page', { timeout: 20_000 }, () => {
  it('shows unlocked content sanitised, and unlocks a locked hint after a confirmation stating the cost', async () => {
    let detail = base;
    const api = mockApi({
      'POST /api/ctf/challenge': () => json(detail),
      'GET /api/user/info': () => json(makeUser()),
      'GET /api/info/completions': () => json({ userCompletions: [], teamCompletions: [] }),
      'POST /api/ctf/unlock-hint': () => {
        detail = {
          ...base,
          hints: [base.hints[0]!, { ...base.hints[1]!, unlocked: true, content: '<p>b64</p>' }],
        };
        return json({ message: MESSAGES.hintUnlocked, content: '<p>b64</p>' });
      },
    });
    renderPage(<ChallengePage />, '/challenge?id=5');
    const hints = await screen.findAllByTestId('hint');
    expect(hints).toHaveLength(2);
    const first = within(hints[0]!).getByTestId('hint-content');
    expect(first).toHaveTextContent('Look up');
    expect(first.innerHTML).not.toContain('onerror');
    expect(within(hints[1]!).getByText('(30 points)')).toBeInTheDocument();
    confirm.mockReturnValueOnce(false);
    await userEvent.click(within(hints[1]!).getByRole('button', { name: 'Unlock hint 2' }));
    expect(confirm).toHaveBeenCalledWith('Unlock the hint "Big one"? It costs your team 30 points.');
    expect(api.count('POST /api/ctf/unlock-hint')).toBe(0);
    await userEvent.click(within(hints[1]!).getByRole('button', { name: 'Unlock hint 2' }));
    expect(api.bodyOf('POST /api/ctf/unlock-hint')).toEqual({ hint_id: '2' });
    await waitFor(() => expect(screen.getAllByTestId('hint-content')[1]).toHaveTextContent('b64'));
  });

  it('shows attempts left and refreshes them after a wrong flag, then shows the refusal', async () => {
    let left = 2;
    mockApi({
      'POST /api/ctf/challenge': () => json({ ...base, hints: [], attempts_left: left }),
      'GET /api/user/info': () => json(makeUser()),
      'GET /api/info/completions': () => json({ userCompletions: [], teamCompletions: [] }),
      'POST /api/ctf/submit-flag': () => {
        if (left === 0) return json({ message: MESSAGES.noAttemptsLeft }, 403);
        left -= 1;
        return json({ message: MESSAGES.incorrectFlag });
      },
    });
    renderPage(<ChallengePage />, '/challenge?id=5');
    expect(await screen.findByTestId('attempts-left')).toHaveTextContent('Attempts left: 2');
    await userEvent.type(screen.getByLabelText('Flag'), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Submit Flag' }));
    await waitFor(() => expect(screen.getByTestId('attempts-left')).toHaveTextContent('Attempts left: 1'));
    left = 0;
    await userEvent.type(screen.getByLabelText('Flag'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Submit Flag' }));
    expect(await within(screen.getByTestId('flag-message')).findByRole('alert')).toHaveTextContent(
      MESSAGES.noAttemptsLeft,
    );
  });
});

describe('prerequisites on the challenge page', { timeout: 20_000 }, () => {
  it('shows the locked view with no flag form or hints', async () => {
    mockApi({
      'POST /api/ctf/challenge': () =>
        json({ ...base, description: '', hints: [], attempts_left: null, locked: true }),
      'GET /api/user/info': () => json(makeUser()),
      'GET /api/info/completions': () => json({ userCompletions: [], teamCompletions: [] }),
    });
    renderPage(<ChallengePage />, '/challenge?id=5');
    expect(await screen.findByTestId('challenge-locked')).toHaveTextContent(MESSAGES.challengeLocked);
    expect(screen.getByRole('heading', { level: 1, name: 'Hinted' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Flag')).toBeNull();
    expect(screen.queryByTestId('hint')).toBeNull();
  });
});
