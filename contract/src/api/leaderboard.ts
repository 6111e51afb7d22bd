import { z } from 'zod';
import { endpoint } from './common.js';
import { ROUTES } from './routes.js';
import { TeamCompletion } from './teams.js';
import { UserCompletion } from './users.js';

export const LeaderboardEntry = z.object({ name: z.string(), points: z.number() });
export type LeaderboardEntry = z.infer<typeof LeaderboardEntry>;

export const leaderboard = endpoint({
  ...ROUTES.leaderboard.leaderboard,
  body: undefined,
  response: z.array(LeaderboardEntry),
});

const Completions = z.object({
  userCompletions: z.array(UserCompletion),
  teamCompletions: z.array(TeamCompletion),
});

/** Answers the caller's own completions whatever the body holds; the body is validated only. */
export const getCompletions = endpoint({
  ...ROUTES.leaderboard.getCompletions,
  body: z
    .object({
      userCompletions: z.array(z.unknown()).max(10_000).optional(),
      teamCompletions: z.array(z.unknown()).max(10_000).optional(),
    })
    // A POST with no body at all reaches the validator as null.
    .nullish()
    .transform((body) => body ?? {}),
  response: Completions,
});
