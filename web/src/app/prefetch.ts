import type { QueryClient } from '@tanstack/react-query';
import { announcementsQuery } from '../lib/announcements';
import { adminAuthenticatedQuery, authenticatedQuery, currentUserQuery } from '../lib/auth';
import { challengeListQuery } from '../features/challenges/api/challenge-list';
import { completionsQuery } from '../lib/completions';
import { leaderboardPageQuery } from '../features/leaderboard/api/leaderboard';
import { siteInfoQuery } from '../lib/site-info';

/** Pages behind the session check (docs/product.md §2). */
const USER_PAGES = new Set(['/profile', '/compete', '/challenge', '/rate-challenge', '/leaderboard']);
/** Pages that show the public site info (event window, links, login methods, challenge host). */
const SITE_INFO_PAGES = new Set(['/', '/login', '/challenge_help', '/compete', '/rules']);

/**
 * On the first load, asks at once for what the opened page will need, while its code is still
 * downloading: otherwise the session check waits for the page's chunk, and the page's data waits
 * for the check, one round trip after another (on a phone, most of the time to the first
 * content). Only calls that never fail for a visitor, or that the page makes anyway, are made.
 */
export function prefetchForPage(client: QueryClient, pathname: string): void {
  const path = pathname.replace(/\/+$/, '') || '/';
  // The navbar asks on every page who is signed in (a visitor gets 200 null). On Compete, a team
  // member's cards also show the team's solves, asked as soon as the answer names a team.
  const user = client.fetchQuery(currentUserQuery).catch(() => null);
  // So does it for the unread announcements' count; the home page shows the pinned one above
  // everything, which must come with the first render, not push the page down after it.
  void client.prefetchQuery(announcementsQuery);
  if (path === '/compete') {
    void user.then((me) => (me?.team_id ? client.prefetchQuery(completionsQuery) : undefined));
  }
  if (USER_PAGES.has(path)) void client.prefetchQuery(authenticatedQuery);
  if (path === '/admin/panel') void client.prefetchQuery(adminAuthenticatedQuery);
  if (SITE_INFO_PAGES.has(path)) void client.prefetchQuery(siteInfoQuery);
  if (path === '/compete') void client.prefetchQuery(challengeListQuery);
  if (path === '/leaderboard') void client.prefetchQuery(leaderboardPageQuery('', 0));
}
