import { BROWSER_HEADERS, type Req } from './load.js';
import type { SeededEvent } from './seed.js';

/**
 * The leaderboard's first view as the server renders it (GET /leaderboard, a signed-in player:
 * the HTML with the podium, the first rows and the answers they were drawn from), beside the JSON
 * answer of the same data (the board's first page, as the page would otherwise ask for it). The
 * target: the page's req/s within 1.5x of the JSON's (report.ts).
 */
export const FIRST_VIEW_SCENARIOS = ['first-view', 'first-view-json'] as const;
export type FirstViewScenario = (typeof FIRST_VIEW_SCENARIOS)[number];

/** The JSON's req/s over the page's may be at most this. */
export const FIRST_VIEW_MAX_COST = 1.5;

export function firstViewRequest(name: FirstViewScenario, event: SeededEvent): () => Req {
  const { sessions } = event;
  const cookie = () => `ctf_session=${sessions[Math.floor(Math.random() * sessions.length)]!.token}`;
  const path = name === 'first-view' ? '/leaderboard' : '/api/info/leaderboard?limit=50&offset=0';
  return () => ({ method: 'GET', path, headers: { ...BROWSER_HEADERS, cookie: cookie() } });
}

/**
 * The report's check of the rendered page against its JSON, each by its ratio to its own
 * interleaved hello baseline (the two are measured minutes apart); null when either was not run.
 */
export function firstViewCheck(
  ratioOf: (scenario: FirstViewScenario) => number,
  connections: number,
): [string, number, boolean] | null {
  const [pageRatio, jsonRatio] = [ratioOf('first-view'), ratioOf('first-view-json')];
  if (!(pageRatio > 0) || !(jsonRatio > 0)) return null;
  const cost = jsonRatio / pageRatio;
  return [
    `SQLite server-rendered leaderboard page @${connections} within ${FIRST_VIEW_MAX_COST}x of its JSON (ratio to hello: JSON / page)`,
    cost,
    cost <= FIRST_VIEW_MAX_COST,
  ];
}
