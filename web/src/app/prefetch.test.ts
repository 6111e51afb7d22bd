import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query';
import { prefetchForPage } from './prefetch';

afterEach(() => vi.unstubAllGlobals());

const SITE = {
  activated: true,
  eventStart: '2025-10-15T01:00:00Z',
  eventEnd: '2025-10-22T01:00:00Z',
};

/** Records the paths asked for; every call succeeds. */
function serve(me: unknown = null) {
  const paths: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = String(input);
      paths.push(path);
      const body =
        path === '/api/info/site'
          ? SITE
          : path.endsWith('authenticated')
            ? { message: 'Authorized' }
            : path === '/api/user/info'
              ? me
              : [];
      return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return paths;
}

async function prefetched(pathname: string, me: unknown = null): Promise<string[]> {
  const paths = serve(me);
  const client = createQueryClient();
  prefetchForPage(client, pathname);
  // Let every started request (and the list's call after the site check) finish.
  await vi.waitFor(() => expect(client.isFetching()).toBe(0));
  return [...paths].sort();
}

describe('prefetchForPage', () => {
  it.each([
    ['/', ['/api/info/announcements', '/api/info/site', '/api/user/info']],
    ['/login', ['/api/info/announcements', '/api/info/site', '/api/user/info']],
    [
      '/compete',
      [
        '/api/authenticated',
        '/api/ctf/challenges',
        '/api/info/announcements',
        '/api/info/site',
        '/api/user/info',
      ],
    ],
    [
      '/compete/',
      [
        '/api/authenticated',
        '/api/ctf/challenges',
        '/api/info/announcements',
        '/api/info/site',
        '/api/user/info',
      ],
    ],
    [
      '/leaderboard',
      [
        '/api/authenticated',
        '/api/info/announcements',
        '/api/info/leaderboard?limit=50&offset=0',
        '/api/user/info',
      ],
    ],
    ['/profile', ['/api/authenticated', '/api/info/announcements', '/api/user/info']],
    ['/admin/panel', ['/api/admin/authenticated', '/api/info/announcements', '/api/user/info']],
    ['/kali-setup-guide', ['/api/info/announcements', '/api/user/info']],
    ['/no-such-page', ['/api/info/announcements', '/api/user/info']],
  ])('asks at start-up for what %s needs, in parallel with its code', async (pathname, expected) => {
    expect(await prefetched(pathname)).toEqual(expected);
  });

  it('asks for the site info once for the compete page: the list reuses the answer', async () => {
    const paths = await prefetched('/compete');
    expect(paths.filter((p) => p === '/api/info/site')).toHaveLength(1);
  });

  it("asks for a team member's completions on the compete page once the user's team is known", async () => {
    const member = { username: 'alice', team_id: '7' };
    expect(await prefetched('/compete', member)).toContain('/api/info/completions');
    expect(await prefetched('/leaderboard', member)).not.toContain('/api/info/completions');
    expect(await prefetched('/compete', { username: 'solo', team_id: null })).not.toContain(
      '/api/info/completions',
    );
  });
});
