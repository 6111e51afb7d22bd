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
