import { LEADERBOARD_SCROLL_HEIGHT_PX } from '@ctf/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query';
import { LeaderboardPage } from './LeaderboardPage';

afterEach(() => vi.unstubAllGlobals());

function serve(body: unknown, status = 200) {
  const fetch = vi.fn(async () => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderBoard() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <LeaderboardPage />
    </QueryClientProvider>,
  );
}

const board = [
  { name: 'Red Team', points: 900 },
  { name: 'blue', points: 700 },
  { name: 'Green Team', points: 400 },
  { name: 'solo-sam', points: 100 },
];

// Rendering whole pages is slow when every workspace's tests run at once.
describe('LeaderboardPage', { timeout: 20_000 }, () => {
  it('lists names and points in order with rank numbers, and colours the top 3', async () => {
    const fetch = serve(board);
    renderBoard();
    const rows = await screen.findAllByTestId('leaderboard-entry');
    expect(fetch).toHaveBeenCalledWith('/api/info/leaderboard', expect.objectContaining({ method: 'GET' }));
    expect(rows.map((r) => r.textContent)).toEqual([
      '#1Red Team900 points',
      '#2blue700 points',
      '#3Green Team400 points',
      '#4solo-sam100 points',
    ]);
    const badges = rows.map((r) => within(r).getByTestId('points-badge'));
    expect(badges[0]).toHaveClass('bg-warning');
    expect(badges[1]).toHaveClass('bg-secondary');
    expect(badges[2]).toHaveClass('bg-info');
    expect(badges[3]).toHaveClass('bg-primary');
    const scroller = screen.getByRole('region', { name: 'Leaderboard list' });
    expect(scroller).toHaveClass('leaderboard-list');
    expect(scroller.style.maxHeight).toBe(`${LEADERBOARD_SCROLL_HEIGHT_PX}px`);
  });

  it('filters names by the search box, case-insensitively, keeping each rank', async () => {
    serve(board);
    renderBoard();
    await screen.findAllByTestId('leaderboard-entry');
    await userEvent.type(screen.getByLabelText('Search'), 'TEAM');
    const rows = screen.getAllByTestId('leaderboard-entry');
    expect(rows.map((r) => r.textContent)).toEqual(['#1Red Team900 points', '#3Green Team400 points']);
    expect(within(rows[1]!).getByTestId('points-badge')).toHaveClass('bg-info');
    await userEvent.clear(screen.getByLabelText('Search'));
    await userEvent.type(screen.getByLabelText('Search'), 'nobody');
    expect(screen.getByText('No names match your search.')).toBeInTheDocument();
  });

  it("shows the server's message when the board cannot be read", async () => {
    serve({ message: 'Unauthorized' }, 401);
    renderBoard();
    expect(await screen.findByRole('alert')).toHaveTextContent('Unauthorized');
  });
});
