import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query';
import { FreezeBanner } from './FreezeBanner';
import { ScoreGraph } from './ScoreGraph';

afterEach(() => vi.unstubAllGlobals());

describe('ScoreGraph', () => {
  it('shows the top competitors as a chart and the same data as a table', async () => {
    const fetch = vi.fn(
      async (_input: RequestInfo | URL) =>
        new Response(
          JSON.stringify({
            series: [
              {
                name: 'Red',
                points: [
                  { time: '2025-10-15T01:00:00.000Z', score: 100 },
                  { time: '2025-10-15T02:00:00.000Z', score: 400 },
                ],
              },
              { name: 'sam', points: [{ time: '2025-10-15T01:30:00.000Z', score: 200 }] },
            ],
            frozen_at: null,
          }),
          { headers: { 'Content-Type': 'application/json' } },
        ),
    );
    vi.stubGlobal('fetch', fetch);
    render(
      <QueryClientProvider client={createQueryClient()}>
        <ScoreGraph />
      </QueryClientProvider>,
    );
    const table = await screen.findByTestId('score-graph-table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((r) => [r.querySelector('th')!.textContent, r.querySelectorAll('td')[1]!.textContent]),
    ).toEqual([
      ['Red', '100'],
      ['Red', '400'],
      ['sam', '200'],
    ]);
    expect(String(fetch.mock.calls[0]![0])).toBe('/api/info/scoreboard/graph?top=10');
    expect(screen.getByRole('heading', { name: 'Top 2 over time' })).toBeInTheDocument();
  });
});

describe('FreezeBanner', () => {
  const at = '2025-10-21T23:00:00.000Z';
  it('tells the public the board is frozen and since when, and admins that they see it live', () => {
    const { rerender } = render(<FreezeBanner freezeAt={at} isAdmin={false} now={Date.parse(at) + 1} />);
    expect(screen.getByTestId('freeze-banner')).toHaveTextContent('The scoreboard is frozen since');
    rerender(<FreezeBanner freezeAt={at} isAdmin now={Date.parse(at) + 1} />);
    expect(screen.getByTestId('freeze-banner')).toHaveTextContent('Live board (admins only)');
  });

  it('says nothing before the freeze time or without one', () => {
    const { rerender } = render(<FreezeBanner freezeAt={at} isAdmin={false} now={Date.parse(at) - 1} />);
    expect(screen.queryByTestId('freeze-banner')).toBeNull();
    rerender(<FreezeBanner freezeAt={null} isAdmin={false} />);
    expect(screen.queryByTestId('freeze-banner')).toBeNull();
  });
});
