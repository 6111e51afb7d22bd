import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query';
import { GRAPH_COLORS } from '../graph-data';
import { FreezeBanner } from './FreezeBanner';
import { ScoreGraph } from './ScoreGraph';

/**
 * jsdom has no canvas: uPlot is replaced by a recorder of what the chart asked it to draw (the
 * drawing itself is tested in Chromium, e2e/scoring.test.ts).
 */
const uplot = vi.hoisted(() => {
  const made: { options: any; data: any[]; setData: any; destroy: any; redraw: any }[] = [];
  class FakePlot {
    static paths = { stepped: (opts: unknown) => ({ stepped: opts }) };
    over = document.createElement('div');
    setData = vi.fn();
    destroy = vi.fn();
    setSize = vi.fn();
    redraw = vi.fn();
    constructor(options: any, data: any[], target: HTMLElement) {
      target.append(document.createElement('canvas'));
      made.push({ options, data, setData: this.setData, destroy: this.destroy, redraw: this.redraw });
    }
  }
  return { made, FakePlot };
});
vi.mock('uplot', () => ({ default: uplot.FakePlot }));

beforeEach(() => {
  uplot.made.length = 0;
});
// NOTE: jsdom has no ResizeObserver. Stubbed for the whole file, not per test: React may still
// reconnect a chart's effects (a late Suspense reveal) after a test has ended on a busy machine,
// and an observer missing then failed the next test at random.
beforeAll(() => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
});
afterAll(() => vi.unstubAllGlobals());

/** A busy machine (the whole suite at once) can take over testing-library's 1 s default. */
const WAIT = { timeout: 10_000 };

const RED = [
  { time: '2025-10-15T01:00:00.000Z', score: 100 },
  { time: '2025-10-15T02:00:00.000Z', score: 400 },
];
const SAM = [{ time: '2025-10-15T01:30:00.000Z', score: 200 }];

/** Serves the graph: `answers` one after the other (the last one again), and counts the calls. */
function serveGraph(...answers: { name: string; points: { time: string; score: number }[] }[][]) {
  let calls = 0;
  const fetch = vi.fn(async (_input: RequestInfo | URL) => {
    const series = answers[Math.min(calls++, answers.length - 1)];
    return new Response(JSON.stringify({ series, frozen_at: null }), {
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderGraph(client = createQueryClient()) {
  return {
    client,
    ...render(
      <QueryClientProvider client={client}>
        <ScoreGraph />
      </QueryClientProvider>,
    ),
  };
}

describe('ScoreGraph', () => {
  it('shows the top competitors as a chart and the same data as a table, made when opened', async () => {
    const fetch = serveGraph([
      { name: 'Red', points: RED },
      { name: 'sam', points: SAM },
    ]);
    renderGraph();
    expect(await screen.findByRole('heading', { name: 'Top 2 over time' }, WAIT)).toBeInTheDocument();
    expect(String(fetch.mock.calls[0]![0])).toBe('/api/info/scoreboard/graph?top=10');
    // The table's rows (thousands in a long event) exist only once it is opened.
    expect(screen.queryByTestId('score-graph-table')).toBeNull();
    await userEvent.click(screen.getByText('Score graph as a table'));
    const table = await screen.findByTestId('score-graph-table', undefined, WAIT);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((r) => [r.querySelector('th')!.textContent, r.querySelectorAll('td')[1]!.textContent]),
    ).toEqual([
      ['Red', '100'],
      ['Red', '400'],
      ['sam', '200'],
    ]);
  });

  it('keeps the size of its box from the loading notice to the drawn chart, its legend drawn with the page', async () => {
    serveGraph([
      { name: 'Red', points: RED },
      { name: 'sam', points: SAM },
    ]);
    const { container } = renderGraph();
    // Before the answer: the notice stands in the box the chart will fill.
    expect(screen.getByRole('status')).toHaveTextContent('Loading the score graph…');
    expect(screen.getByRole('status').parentElement).toHaveClass('score-graph');
    // The table's line below is there from the start too.
    expect(screen.getByText('Score graph as a table')).toBeInTheDocument();
    await screen.findByRole('heading', { name: 'Top 2 over time' }, WAIT);
    const box = screen.getByTestId('score-graph-chart');
    expect(box).toHaveClass('score-graph');
    expect(box).toHaveAttribute('aria-hidden', 'true');
    const legend = [...box.querySelectorAll('li')];
    expect(legend.map((li) => li.textContent)).toEqual(['Red', 'sam']);
    expect(legend.map((li) => (li.firstElementChild as HTMLElement).style.backgroundColor)).toEqual([
      'rgb(78, 121, 167)',
      'rgb(242, 142, 43)',
    ]);
    await waitFor(
      () => expect(container.querySelector('[data-testid="score-graph-canvas"] canvas')).not.toBeNull(),
      WAIT,
    );
  });

  it('draws one stepped line a competitor on a shared time axis, in the legend colours', async () => {
    serveGraph([
      { name: 'Red', points: RED },
      { name: 'sam', points: SAM },
    ]);
    renderGraph();
    // Made empty, then drawn in a task of its own.
    await waitFor(() => expect(uplot.made[0]?.setData).toHaveBeenCalledTimes(1), WAIT);
    const { options } = uplot.made[0]!;
    expect(uplot.made[0]!.data).toEqual([[], [], []]);
    const data = uplot.made[0]!.setData.mock.calls[0][0];
    expect(options.series.slice(1).map((s: any) => [s.label, s.stroke])).toEqual([
      ['Red', GRAPH_COLORS[0]],
      ['sam', GRAPH_COLORS[1]],
    ]);
    // Step after: a score holds until the next solve, and after the last one to the right edge.
    expect(options.series[1].paths).toEqual({ stepped: { align: 1, extend: true } });
    expect(options.series[1].spanGaps).toBe(true);
    expect(options.legend.show).toBe(false);
    const t = (iso: string) => Date.parse(iso);
    // From a little before the first solve (2% of the hour, 72 s) to the last one.
    expect(data[0]).toEqual([t(RED[0]!.time) - 72_000, t(RED[0]!.time), t(SAM[0]!.time), t(RED[1]!.time)]);
    // Each line through its own points only.
    expect(data[1]).toEqual([0, 100, null, 400]);
    expect(data[2]).toEqual([null, 0, 200, null]);
  });

  it('draws new scores into the same chart, makes a new one for other names, and lets it go when unmounted', async () => {
    serveGraph(
      [{ name: 'Red', points: RED.slice(0, 1) }],
      [{ name: 'Red', points: RED }],
      [{ name: 'Blue', points: RED }],
    );
    const { client, unmount } = renderGraph();
    await waitFor(() => expect(uplot.made[0]?.setData).toHaveBeenCalledTimes(1), WAIT);
    expect(uplot.made[0]!.setData.mock.calls[0][0][1]).toEqual([0, 100]);
    await client.refetchQueries();
    await waitFor(() => expect(uplot.made[0]!.setData).toHaveBeenCalledTimes(2), WAIT);
    expect(uplot.made[0]!.setData.mock.calls[1][0][1]).toEqual([0, 100, 400]);
    await client.refetchQueries();
    await waitFor(() => expect(uplot.made).toHaveLength(2), WAIT);
    expect(uplot.made[0]!.destroy).toHaveBeenCalled();
    expect(uplot.made[1]!.options.series[1].label).toBe('Blue');
    unmount();
    expect(uplot.made[1]!.destroy).toHaveBeenCalled();
  });

  it('draws again, in the theme colours read anew, when the theme changes', async () => {
    serveGraph([{ name: 'Red', points: RED }]);
    const { unmount } = renderGraph();
    await waitFor(() => expect(uplot.made).toHaveLength(1), WAIT);
    const { options, redraw } = uplot.made[0]!;
    expect(redraw).not.toHaveBeenCalled();
    document.documentElement.setAttribute('data-bs-theme', 'dark');
    await waitFor(() => expect(redraw).toHaveBeenCalledTimes(1), WAIT);
    expect(typeof options.axes[0].stroke()).toBe('string');
    unmount();
    document.documentElement.removeAttribute('data-bs-theme');
  });

  it('shows nothing for a board where nobody scored', async () => {
    const fetch = serveGraph([]);
    const { container } = renderGraph();
    await waitFor(() => expect(fetch).toHaveBeenCalled(), WAIT);
    await waitFor(() => expect(container).toBeEmptyDOMElement(), WAIT);
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
