import { QueryClient } from '@tanstack/react-query';

/** Query keys in one place so a write can invalidate exactly what it changed. */
export const queryKeys = {
  authenticated: ['auth', 'user'] as const,
  adminAuthenticated: ['auth', 'admin'] as const,
  siteInfo: ['site', 'info'] as const,
  userInfo: ['user', 'info'] as const,
  teamInfo: ['team', 'info'] as const,
  teamList: ['team', 'list'] as const,
  challenges: ['challenges'] as const,
  challenge: (id: string) => ['challenge', id] as const,
  leaderboard: ['leaderboard'] as const,
  announcements: ['announcements'] as const,
  /** GET /api/info/completions: the caller's own user and team completions. */
  completions: ['completions'] as const,
  admin: (what: string) => ['admin', what] as const,
  /** GET /api/user/writeups: the caller's competitor's writeups (issue 32). */
  myWriteups: ['writeups', 'mine'] as const,
  /** GET /api/info/writeups: a challenge's published writeups. */
  publishedWriteups: (id: string) => ['writeups', 'published', id] as const,
};

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 5_000 },
    },
  });
}
