import { LEADERBOARD_PAGE, leaderboardApi, type LeaderboardRow } from '@ctf/contract';
import { keepPreviousData, useQueries, useQuery, type QueryClient } from '@tanstack/react-query';
import { ApiError, NetworkError } from '../../../lib/api';
import { subscribeLiveEvent, subscribeLiveReopen } from '../../../lib/live-events';
import { queryKeys } from '../../../lib/query';

/**
 * Rows per request. A 400 px list shows about ten rows: a page of 50 is a few hundred bytes in
 * Brotli, and a refresh asks again only for the pages on screen (issue 20).
 */
export const PAGE_SIZE = 50;

/** One page of the board (or of a name search), and what its headers tell. */
export interface LeaderboardPage {
  rows: LeaderboardRow[];
  /** How many competitors the board (or the search) holds. */
  total: number;
  /** The rank of the caller's competitor; null for visitors and callers off the board. */
  callerRank: number | null;
}

function headerNumber(res: Headers, name: string): number | null {
  const value = res.get(name);
  if (value === null || !/^[0-9]+$/.test(value)) return null;
  return Number(value);
}

/**
 * GET /api/info/leaderboard with paging parameters (the whole board is never asked for here).
 * Its own fetch, not lib/api's: the total and the caller's rank come in headers.
 */
export async function fetchLeaderboardPage(params: Record<string, string>): Promise<LeaderboardPage> {
  const url = `${leaderboardApi.leaderboard.path}?${new URLSearchParams(params).toString()}`;
  let res: Response;
  try {
    res = await fetch(url, { method: 'GET', credentials: 'include' });
  } catch (err) {
    throw new NetworkError(err instanceof Error ? err.message : 'network error');
  }
  let body: unknown = undefined;
  try {
    body = JSON.parse(await res.text());
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const message = (body as { message?: unknown } | undefined)?.message;
    throw new ApiError(
      res.status,
      typeof message === 'string' && message ? message : `Request failed (${res.status})`,
    );
  }
  const rows = Array.isArray(body) ? (body as LeaderboardRow[]) : [];
  return {
    rows,
    total: headerNumber(res.headers, LEADERBOARD_PAGE.totalHeader) ?? rows.length,
    callerRank: headerNumber(res.headers, LEADERBOARD_PAGE.callerRankHeader),
  };
}

/** `?division=` when a division is chosen ('' is the whole board; issue 19). */
function divisionParam(division: string): Record<string, string> {
  return division ? { division } : {};
}

/**
 * Page `index` (PAGE_SIZE rows) of the board (of one division's board when `division` names one:
 * ranks within it), or of the competitors whose name holds `search`.
 */
export function leaderboardPageQuery(search: string, index: number, division = '') {
  return {
    queryKey: [...queryKeys.leaderboard, 'page', division, search, index] as const,
    queryFn: () =>
      fetchLeaderboardPage({
        limit: String(PAGE_SIZE),
        offset: String(index * PAGE_SIZE),
        ...(search ? { q: search } : {}),
        ...divisionParam(division),
      }),
  };
}

/**
 * The first page: the podium, the size of the board or search, and the caller's rank. A search
 * keeps showing the previous answer while the next one loads (no flash of "Loading").
 */
export function useFirstPage(search: string, division = '') {
  return useQuery({ ...leaderboardPageQuery(search, 0, division), placeholderData: keepPreviousData });
}

/** The pages the list shows now: only these are asked for, and only these refresh. */
export function useShownPages(search: string, indexes: readonly number[], division = '') {
  return useQueries({ queries: indexes.map((i) => leaderboardPageQuery(search, i, division)) });
}

/**
 * The caller's current rank (`?around=me&limit=1`) on the board or within a division, or null
 * when they are not on it.
 */
export async function fetchMyRank(division = ''): Promise<number | null> {
  return (await fetchLeaderboardPage({ around: 'me', limit: '1', ...divisionParam(division) })).callerRank;
}

/**
 * Asks again for what open leaderboards show: the queries in use refetch, the others are only
 * marked stale (asked again when they are shown).
 */
export function refreshShownLeaderboard(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: queryKeys.leaderboard });
}

/**
 * Calls onChange when the board changed: the live stream's `leaderboard` event, or the stream
 * opened again after a failure (changes may have been missed). Answers the unsubscribe.
 */
export function subscribeBoardChanges(onChange: () => void): () => void {
  const offs = [subscribeLiveEvent('leaderboard', onChange), subscribeLiveReopen(onChange)];
  return () => {
    for (const off of offs) off();
  };
}
