/** The event's name until the site info (its Name setting) has arrived. */
export const DEFAULT_SITE_NAME = 'Capture The Flag';

/** Each page's own title (WCAG 2.4.2): what the page is, then the site (the event's name). */
export function pageTitle(pathname: string, search: string, site: string = DEFAULT_SITE_NAME): string {
  const path = pathname.replace(/\/+$/, '') || '/';
  const titles: Record<string, string> = {
    '/': site,
    '/login': 'Login',
    '/profile': new URLSearchParams(search).get('mode') === '1' ? 'Team' : 'Profile',
    '/compete': 'Compete',
    '/challenge': 'Challenge',
    '/rate-challenge': 'Rate Challenges',
    '/challenge_help': 'Connecting to remote challenges',
    '/kali-setup-guide': 'Kali setup guide',
    '/rules': 'Rules',
    '/leaderboard': 'Leaderboard',
    '/announcements': 'Announcements',
    '/admin/panel': 'Admin Panel',
  };
  const title = titles[path] ?? 'Page not found';
  return path === '/' ? site : `${title} · ${site}`;
}
