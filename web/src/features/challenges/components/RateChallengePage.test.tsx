import { RATING_LABELS, UI_TEXT, type User } from '@ctf/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, makeUser, mockApi, renderPage } from '../testing';
import { RateChallengePage } from './RateChallengePage';

afterEach(() => vi.unstubAllGlobals());

const time = '2025-10-15T01:00:00Z';
const user = (rates: string[] = []): User =>
  makeUser({
    completions: [
      { id: '1', name: 'Alpha', time },
      { id: '2', name: 'Beta', time },
      { id: '3', name: 'Gamma', time },
    ],
    user_rates: ['3', ...rates],
  });

// Rendering whole pages is slow when every workspace's tests run at once.
describe('RateChallengePage', { timeout: 20_000 }, () => {
  it('lists solved but unrated challenges with the five rating options', async () => {
    mockApi({ 'GET /api/user/info': () => json(user()) });
    renderPage(<RateChallengePage />);
    expect(await screen.findByRole('heading', { name: 'Alpha' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Beta' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Gamma' })).toBeNull();
    const options = within(screen.getByLabelText('Rating for Alpha')).getAllByRole('option').slice(1);
    expect(options.map((o) => o.textContent)).toEqual([1, 2, 3, 4, 5].map((v) => `${v} ${RATING_LABELS[v]}`));
    expect(options.map((o) => (o as HTMLOptionElement).value)).toEqual(['1', '2', '3', '4', '5']);
  });

  it('sends the selected value and drops the challenge once rated', async () => {
    let rated: string[] = [];
    const api = mockApi({
      'GET /api/user/info': () => json(user(rated)),
      'POST /api/ctf/rate-challenge': (body) => {
        rated = [String((body as { challenge_id: string }).challenge_id)];
        return json({ message: 'Rating submitted successfully!' });
      },
    });
    renderPage(<RateChallengePage />);
    await userEvent.selectOptions(await screen.findByLabelText('Rating for Beta'), '3');
    await userEvent.click(screen.getByRole('button', { name: 'Rate Beta' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Beta' })).toBeNull());
    expect(api.calls.find((c) => c.key === 'POST /api/ctf/rate-challenge')?.body).toEqual({
      challenge_id: '2',
      rating: '3',
    });
    const alert = within(screen.getByTestId('rate-message')).getByRole('alert');
    expect(alert).toHaveTextContent('Rating submitted successfully!');
    expect(alert).toHaveClass('alert-success');
  });

  it("shows 'Error Rating Challenge!' for a refusal, an empty answer or a network failure", async () => {
    const answers = [
      () => json({ message: 'Error: rating must be 1 to 5' }, 400),
      () => new Response('', { status: 500 }),
      () => Promise.reject(new TypeError('Failed to fetch')),
    ];
    let i = 0;
    mockApi({
      'GET /api/user/info': () => json(user()),
      'POST /api/ctf/rate-challenge': () => answers[i++]!(),
    });
    renderPage(<RateChallengePage />);
    await userEvent.selectOptions(await screen.findByLabelText('Rating for Alpha'), '5');
    for (let n = 1; n <= answers.length; n++) {
      await userEvent.click(screen.getByRole('button', { name: 'Rate Alpha' }));
      await waitFor(() => expect(i).toBe(n));
      const alert = await within(screen.getByTestId('rate-message')).findByRole('alert');
      await waitFor(() => expect(alert).toHaveTextContent(UI_TEXT.errorRatingPage));
      expect(alert).toHaveClass('alert-danger');
    }
  });

  it('says when nothing is waiting for a rating', async () => {
    mockApi({ 'GET /api/user/info': () => json(user(['1', '2'])) });
    renderPage(<RateChallengePage />);
    expect(await screen.findByText(/no solved challenges waiting for a rating/)).toBeInTheDocument();
  });
});
