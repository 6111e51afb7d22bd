import type { FastifyInstance } from 'fastify';

/**
 * The reads every player's first pages make, which the server makes once for everyone: the
 * site's switch and texts, the challenge list, the whole board and its first page, and the home
 * page and the leaderboard as a visitor gets them. GETs change nothing (docs/security.md).
 */
export const WARM_UP_PATHS = [
  '/api/info/site',
  '/api/ctf/challenges',
  '/api/info/leaderboard',
  '/api/info/leaderboard?limit=50&offset=0',
  '/',
  '/leaderboard',
] as const;

/**
 * Makes the shared answers before the server listens, so the first players of an event do not wait
 * for them. At the start of an event on one CPU the first requests built the board (50,000 solves),
 * the list and the pages while hundreds of players a second arrived, with code V8 had not optimised
 * yet: the queue took 5-10 s to drain, and the rush's p99 was its first seconds (bench/NOTES.md,
 * "Where the rush's p99 comes from"). Made here, through the routes themselves (the same answers,
 * kept the same way), they cost the start ~0.1-0.3 s. A refusal (the site closed, no web build) is
 * an answer like another: nothing here can stop the server from starting.
 */
export async function warmSharedAnswers(
  app: FastifyInstance,
): Promise<{ path: string; status: number | null }[]> {
  const made: { path: string; status: number | null }[] = [];
  for (const path of WARM_UP_PATHS) {
    try {
      const answer = await app.inject({
        method: 'GET',
        url: path,
        headers: {
          'accept-encoding': 'br, gzip',
          accept: path.startsWith('/api/') ? 'application/json' : 'text/html',
        },
      });
      made.push({ path, status: answer.statusCode });
    } catch (err) {
      app.log.debug({ err, path }, 'warm-up read failed');
      made.push({ path, status: null });
    }
  }
  return made;
}
