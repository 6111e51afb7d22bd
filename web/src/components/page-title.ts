const SITE = 'Capture The Flag';

/** Each page's own title (WCAG 2.4.2): what the page is, then the site. */
export function pageTitle(pathname: string, search: string): string {
  const path = pathname.replace(/\/+$/, '') || '/';
  const titles: Record<string, string> = {
    '/': SITE,
    '/login': 'Login',
    '/profile': new URLSearchParams(search).get('mode') === '1' ? 'Team' : 'Profile',
    '/compete': 'Compete',
    '/challenge': 'Challenge',
    '/rate-challenge': 'Rate Challenges',
    '/challenge_help': 'Connecting to remote challenges',
    '/kali-setup-guide': 'Kali setup guide',
    '/leaderboard': 'Leaderboard',
    '/announcements': 'Announcements',
    '/admin/panel': 'Admin Panel',
  };
  const title = titles[path] ?? 'Page not found';
  return title === SITE ? SITE : `${title} · ${SITE}`;
}
