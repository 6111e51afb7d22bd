import { z } from 'zod';
import { endpoint } from './common.js';
import { ROUTES } from './routes.js';
import { GRAPH_TOP_DEFAULT, GRAPH_TOP_MAX } from '../rules/constants.js';
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

export const GraphPoint = z.object({ time: z.string(), score: z.number() });
export const GraphSeries = z.object({ name: z.string(), points: z.array(GraphPoint) });
export type GraphSeries = z.infer<typeof GraphSeries>;
export const ScoreGraph = z.object({
  series: z.array(GraphSeries),
  /** The freeze time when the answer is the board as of a freeze, otherwise null. */
  frozen_at: z.string().nullable(),
});
export type ScoreGraph = z.infer<typeof ScoreGraph>;

/** ?top=N: the graph of the N best competitors (1..50, default 10). */
export const GraphQuery = z.object({
  top: z.coerce
    .number({ error: 'top must be a whole number from 1 to 50' })
    .int('top must be a whole number from 1 to 50')
    .min(1, 'top must be a whole number from 1 to 50')
    .max(GRAPH_TOP_MAX, 'top must be a whole number from 1 to 50')
    .optional()
    .default(GRAPH_TOP_DEFAULT),
});

/** GET /api/info/scoreboard/graph?top=10: the top competitors' cumulative points as steps. */
export const scoreGraph = endpoint({
  ...ROUTES.leaderboard.scoreGraph,
  body: undefined,
  response: ScoreGraph,
});

/** CTFtime's JSON scoreboard format (https://ctftime.org/json-scoreboard-feed). */
export const CtftimeFeed = z.object({
  tasks: z.array(z.string()),
  standings: z.array(
    z.object({
      pos: z.number(),
      team: z.string(),
      score: z.number(),
      taskStats: z.record(z.string(), z.object({ points: z.number(), time: z.number() })),
      lastAccept: z.number(),
    }),
  ),
});
export type CtftimeFeed = z.infer<typeof CtftimeFeed>;

/** GET /api/ctftime: the feed CTFtime reads; the same ranking as the leaderboard, frozen with it. */
export const ctftime = endpoint({ ...ROUTES.leaderboard.ctftime, body: undefined, response: CtftimeFeed });
