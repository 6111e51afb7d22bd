import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, makeChallenge, makeUser, mockApi, renderPage } from '../testing';
import { CompetePage } from './CompetePage';

describe('a challenge behind prerequisites on the Compete page', { timeout: 20_000 }, () => {
  it('shows its name and category only, and what to solve first, until the competitor solved it', async () => {
    const gate = makeChallenge(1, { name: 'Gate' });
    const behind = makeChallenge(2, { name: 'Behind', description: '', prerequisites: ['1'] });
    const serve = (solved: boolean) =>
      mockApi({
        'GET /api/info/site': () => json({ activated: true }),
        'GET /api/ctf/challenges': () => json([gate, behind]),
        'GET /api/user/info': () =>
          json(
            makeUser(
              solved ? { completions: [{ id: '1', name: 'Gate', time: '2025-10-15T01:00:00Z' }] } : {},
            ),
          ),
        'GET /api/info/completions': () => json({ userCompletions: [], teamCompletions: [] }),
      });
    serve(false);
    const view = renderPage(<CompetePage />, '/compete');
    const card = (await screen.findAllByTestId('challenge-card')).find((c) =>
      c.textContent?.includes('Behind'),
    )!;
    expect(within(card).getByTestId('locked-note')).toHaveTextContent('Locked: solve Gate first.');
    expect(within(card).queryByRole('link')).toBeNull();
    expect(within(card).queryByText(/Points/)).toBeNull();
    view.unmount();
  });
});
