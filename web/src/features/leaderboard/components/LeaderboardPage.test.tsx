import { LEADERBOARD_PAGE, LEADERBOARD_SCROLL_HEIGHT_PX } from '@ctf/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query';
import { LeaderboardPage } from './LeaderboardPage';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

type Entry = { name: string; points: number };

/**
 * A fake of GET /api/info/leaderboard's pages (limit, offset, q, around=me) over `entries`, with
 * the total and, when `me` is the rank of the caller, the caller's rank in headers.
 */
/** The page's other calls: no freeze, no graph series, a visitor. */
function others(url: URL): Response | null {
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
  if (url.pathname === '/api/info/scoreboard/graph') return json({ series: [], frozen_at: null });
  if (url.pathname === '/api/info/site') return json({ freezeAt: null });
  if (url.pathname === '/api/user/info') return json(null);
  return null;
}

function serve(entries: Entry[], options: { me?: number } = {}) {
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    const other = others(url);
    if (other) return other;
    const p = url.searchParams;
    const ranked = entries.map((e, i) => ({ ...e, rank: i + 1 }));
    const q = (p.get('q') ?? '').toLowerCase();
    const matched = q ? ranked.filter((e) => e.name.toLowerCase().includes(q)) : ranked;
    const limit = Number(p.get('limit') ?? 100);
    let offset = Number(p.get('offset') ?? 0);
    if (p.get('around') === 'me' && options.me) offset = Math.max(0, options.me - 1 - Math.floor(limit / 2));
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      [LEADERBOARD_PAGE.totalHeader]: String(matched.length),
    };
    if (options.me) headers[LEADERBOARD_PAGE.callerRankHeader] = String(options.me);
    return new Response(JSON.stringify(matched.slice(offset, offset + limit)), { headers });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function fail(body: unknown, status: number) {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async (input: RequestInfo | URL) =>
        others(new URL(String(input), 'http://localhost')) ?? new Response(JSON.stringify(body), { status }),
    ),
  );
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

/** The leaderboard requests made (the graph, site and user calls left out). */
const requested = (fetch: ReturnType<typeof serve>) =>
  fetch.mock.calls.map((c) => String(c[0])).filter((u) => u.startsWith('/api/info/leaderboard'));

// Rendering whole pages is slow when every workspace's tests run at once.
describe('LeaderboardPage', { timeout: 20_000 }, () => {
  it('lists names and points in order with rank numbers, and colours the top 3', async () => {
    const fetch = serve(board);
    renderBoard();
    const rows = await screen.findAllByTestId('leaderboard-entry');
    expect(fetch).toHaveBeenCalledWith(
      '/api/info/leaderboard?limit=50&offset=0',
      expect.objectContaining({ method: 'GET' }),
    );
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

  it('shows the podium: the top 3 with their colours', async () => {
    serve(board);
    renderBoard();
    const podium = await screen.findByRole('region', { name: 'Podium' });
    const places = within(podium).getAllByTestId('podium-entry');
    expect(places.map((p) => p.textContent)).toEqual([
      '#1Red Team900 points',
      '#2blue700 points',
      '#3Green Team400 points',
    ]);
    expect(places.map((p) => within(p).getByTestId('podium-badge').className)).toEqual([
      expect.stringContaining('bg-warning'),
      expect.stringContaining('bg-secondary'),
      expect.stringContaining('bg-info'),
    ]);
  });

  it('filters names by the search box on the server, case-insensitively, keeping each rank', async () => {
    const fetch = serve(board);
    renderBoard();
    await screen.findAllByTestId('leaderboard-entry');
    await userEvent.type(screen.getByLabelText('Search'), 'TEAM');
    await waitFor(() =>
      expect(screen.getAllByTestId('leaderboard-entry').map((r) => r.textContent)).toEqual([
        '#1Red Team900 points',
        '#3Green Team400 points',
      ]),
    );
    expect(requested(fetch)).toContain('/api/info/leaderboard?limit=50&offset=0&q=TEAM');
    const rows = screen.getAllByTestId('leaderboard-entry');
    expect(within(rows[1]!).getByTestId('points-badge')).toHaveClass('bg-info');
    // The podium stays the top of the whole board.
    expect(
      within(screen.getByRole('region', { name: 'Podium' })).getAllByTestId('podium-entry'),
    ).toHaveLength(3);
    await userEvent.clear(screen.getByLabelText('Search'));
    await userEvent.type(screen.getByLabelText('Search'), 'nobody');
    expect(await screen.findByText('No names match your search.')).toBeInTheDocument();
  });

  it("shows the server's message when the board cannot be read", async () => {
    fail({ message: 'Unauthorized' }, 401);
    renderBoard();
    expect(await screen.findByRole('alert')).toHaveTextContent('Unauthorized');
  });

  it('says when no one has scored yet, without a podium', async () => {
    serve([]);
    renderBoard();
    expect(await screen.findByText('No one has scored yet.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Podium' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'My position' })).toBeNull();
  });

  it('offers "My position" only to a caller on the board', async () => {
    serve(board);
    renderBoard();
    await screen.findAllByTestId('leaderboard-entry');
    expect(screen.queryByRole('button', { name: 'My position' })).toBeNull();
  });

  describe('on a board of 5,000', () => {
    const big = Array.from({ length: 5000 }, (_, i) => ({ name: `player-${i + 1}`, points: 10_000 - i }));

    it('keeps only the rows in view in the DOM and asks only for their pages', async () => {
      const fetch = serve(big);
      renderBoard();
      await screen.findAllByTestId('leaderboard-entry');
      const inDom = screen.getAllByTestId('leaderboard-entry').length;
      expect(inDom).toBeGreaterThan(5);
      expect(inDom).toBeLessThan(60);
      expect(new Set(requested(fetch))).toEqual(new Set(['/api/info/leaderboard?limit=50&offset=0']));
    });

    it('"My position" scrolls to the caller\'s row and highlights it', async () => {
      // jsdom does not scroll: record the scroll and move the scroller's offset as a browser would.
      const scrolled: number[] = [];
      const scrollTo = function (this: HTMLElement, options?: ScrollToOptions | number) {
        const top = typeof options === 'object' ? (options.top ?? 0) : 0;
        scrolled.push(top);
        Object.defineProperty(this, 'scrollTop', { value: top, configurable: true, writable: true });
        this.dispatchEvent(new Event('scroll'));
      };
      // The scroller is as tall as its rows (49 px each before measuring), its view 400 px.
      const isScroller = (e: Element) => e.getAttribute('role') === 'region';
      vi.spyOn(Element.prototype, 'scrollHeight', 'get').mockImplementation(function (this: Element) {
        return isScroller(this) ? 5000 * 49 : 0;
      });
      vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
        return isScroller(this) ? LEADERBOARD_SCROLL_HEIGHT_PX : 0;
      });
      const original = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'scrollTo');
      Object.defineProperty(HTMLElement.prototype, 'scrollTo', {
        value: scrollTo,
        configurable: true,
        writable: true,
      });
      onTestFinished(() => {
        if (original) Object.defineProperty(HTMLElement.prototype, 'scrollTo', original);
        else delete (HTMLElement.prototype as { scrollTo?: unknown }).scrollTo;
      });
      const fetch = serve(big, { me: 4321 });
      renderBoard();
      await userEvent.click(await screen.findByRole('button', { name: 'My position' }));
      const mine = await screen.findByText('player-4321');
      const row = mine.closest('li')!;
      expect(row).toHaveAttribute('aria-current', 'true');
      expect(row).toHaveClass('leaderboard-me');
      expect(row.textContent).toBe('#4321player-43215680 points');
      expect(screen.getByTestId('position-note')).toHaveTextContent('Your position: #4321.');
      expect(scrolled.at(-1)).toBeGreaterThan(4000 * 49);
      expect(requested(fetch)).toContain('/api/info/leaderboard?around=me&limit=1');
      expect(requested(fetch)).toContain('/api/info/leaderboard?limit=50&offset=4300');
      expect(screen.getAllByTestId('leaderboard-entry').length).toBeLessThan(60);
    });
  });

  it('tells a caller off the board that they are not on it yet', async () => {
    const fetch = serve(board, { me: 2 });
    renderBoard();
    await screen.findAllByTestId('leaderboard-entry');
    // Between the first answer and the press, the caller dropped off (say, their solve was removed).
    fetch.mockImplementationOnce(
      async () =>
        new Response('[]', {
          headers: { 'Content-Type': 'application/json', [LEADERBOARD_PAGE.totalHeader]: '4' },
        }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'My position' }));
    expect(await screen.findByText('You are not on the leaderboard yet.')).toBeInTheDocument();
  });

  it('filters by division when the site has divisions, ranks within the division', async () => {
    const entries = [
      { name: 'Red Team', points: 900, division: 'Open' },
      { name: 'blue', points: 700, division: 'First-years' },
      { name: 'Green Team', points: 400, division: 'Open' },
      { name: 'solo-sam', points: 100, division: 'First-years' },
    ];
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      const json = (body: unknown, headers: Record<string, string> = {}) =>
        new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json', ...headers } });
      if (url.pathname === '/api/info/site')
        return json({ freezeAt: null, divisions: ['First-years', 'Open'] });
      const other = others(url);
      if (other) return other;
      const division = url.searchParams.get('division');
      const rows = entries
        .filter((e) => division === null || e.division === division)
        .map((e, i) => ({ ...e, rank: i + 1 }));
      return json(rows, { [LEADERBOARD_PAGE.totalHeader]: String(rows.length) });
    });
    vi.stubGlobal('fetch', fetch);
    renderBoard();
    await waitFor(() => expect(screen.getAllByTestId('leaderboard-entry')).toHaveLength(4));
    const select = await screen.findByLabelText('Division');
    expect([...(select as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      'All divisions',
      'First-years',
      'Open',
    ]);
    await userEvent.selectOptions(select, 'First-years');
    await waitFor(() =>
      expect(screen.getAllByTestId('leaderboard-entry').map((r) => r.textContent)).toEqual([
        '#1blue700 points',
        '#2solo-sam100 points',
      ]),
    );
    expect(requested(fetch as unknown as ReturnType<typeof serve>)).toContain(
      '/api/info/leaderboard?limit=50&offset=0&division=First-years',
    );
    const podium = within(screen.getByRole('region', { name: 'Podium' })).getAllByTestId('podium-entry');
    expect(podium.map((p) => p.textContent)).toEqual(['#1blue700 points', '#2solo-sam100 points']);
  });

  it('shows no division filter while the site has none', async () => {
    serve(board);
    renderBoard();
    await screen.findAllByTestId('leaderboard-entry');
    expect(screen.queryByLabelText('Division')).toBeNull();
  });
});
