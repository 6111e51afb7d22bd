import { z } from 'zod';
import { endpoint } from './common.js';
import { ROUTES } from './routes.js';
import { GRAPH_TOP_DEFAULT, GRAPH_TOP_MAX, LEADERBOARD_PAGE } from '../rules/constants.js';
import { TeamCompletion } from './teams.js';
import { UserCompletion } from './users.js';
import { DivisionFilter } from './divisions.js';

/**
 * A competitor on the board. `division` (issue 19) is there only while the site has divisions:
 * the competitor's division (a team's is its leader's), null when it has none.
 */
export const LeaderboardEntry = z.object({
  name: z.string(),
  points: z.number(),
  division: z.string().nullable().optional(),
});
export type LeaderboardEntry = z.infer<typeof LeaderboardEntry>;

/** A row of a paged answer: the entry and its 1-based place on the whole board (or its division). */
export const LeaderboardRow = LeaderboardEntry.extend({ rank: z.number().int().positive() });
export type LeaderboardRow = z.infer<typeof LeaderboardRow>;

/** A whole number written in decimal, within [min, max], named in the refusal. */
function wholeNumber(min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z
    .string(message)
    .regex(/^[0-9]{1,9}$/, message)
    .transform(Number)
    .pipe(z.number().int().min(min, message).max(max, message));
}

/**
 * The leaderboard's query, one object so that other filters (a division) compose with paging.
 * With none of these the answer is the whole board, exactly as docs/product.md lists it; with any of
 * them, a page of `LeaderboardRow`s and the headers of LEADERBOARD_PAGE:
 * - `limit` (1..500, 100 when absent) and `offset` (0 when absent): that slice of the board;
 * - `around=me`: the page of `limit` rows with the caller's competitor in its middle (the top
 *   page when the caller is not on the board); needs a session and excludes offset and q;
 * - `q`: competitors whose name holds this text, ignoring case, in board order, paged likewise;
 * - `division` (issue 19): only that division's competitors, ranked within it (with or without
 *   paging); a name the site does not define is refused. With no divisions defined it is ignored,
 *   as before divisions existed.
 * Parameters this object does not name are ignored.
 */
export const LeaderboardQuery = z
  .object({
    limit: wholeNumber(1, LEADERBOARD_PAGE.maxLimit).optional(),
    offset: wholeNumber(0, LEADERBOARD_PAGE.maxOffset).optional(),
    around: z.literal('me', "must be 'me'").optional(),
    q: z
      .string('must be text')
      .max(LEADERBOARD_PAGE.maxSearchLength, `must be at most ${LEADERBOARD_PAGE.maxSearchLength} characters`)
      .optional(),
    division: DivisionFilter.shape.division,
  })
  .superRefine((query, issues) => {
    if (query.around === undefined) return;
    for (const key of ['offset', 'q'] as const) {
      if (query[key] !== undefined)
        issues.addIssue({ code: 'custom', path: [key], message: 'cannot be combined with around=me' });
    }
  });
export type LeaderboardQuery = z.output<typeof LeaderboardQuery>;

/** Whether a query asks for a page (any paging or search parameter), rather than the whole board. */
export function isPagedQuery(query: LeaderboardQuery): boolean {
  return (
    query.limit !== undefined ||
    query.offset !== undefined ||
    query.around !== undefined ||
    query.q !== undefined
  );
}

/**
 * The whole board (no parameters: byte-for-byte the answer docs/product.md describes, the same for
 * every caller) or one page of it (see LeaderboardQuery).
 */
const LeaderboardAnswer = z.union([z.array(LeaderboardEntry), z.array(LeaderboardRow)]);
export const leaderboard = endpoint<'GET', undefined, typeof LeaderboardAnswer, typeof LeaderboardQuery>({
  ...ROUTES.leaderboard.leaderboard,
  body: undefined,
  query: LeaderboardQuery,
  response: LeaderboardAnswer,
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

/** The same answer as a GET: what the web asks for (no body to send or parse, and an ETag to revalidate). */
export const ownCompletions = endpoint({
  ...ROUTES.leaderboard.ownCompletions,
  body: undefined,
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

/**
 * ?top=N: the graph of the N best competitors (1..50, default 10); ?division=NAME (issue 19): the
 * best of that division, as its leaderboard ranks them (ignored while the site has no divisions).
 */
export const GraphQuery = z.object({
  division: DivisionFilter.shape.division,
  top: z.coerce
    .number({ error: 'top must be a whole number from 1 to 50' })
    .int('top must be a whole number from 1 to 50')
    .min(1, 'top must be a whole number from 1 to 50')
    .max(GRAPH_TOP_MAX, 'top must be a whole number from 1 to 50')
    .optional()
    .default(GRAPH_TOP_DEFAULT),
});

/** GET /api/info/scoreboard/graph?top=10: the top competitors' cumulative points as steps. */
export const scoreGraph = endpoint<'GET', undefined, typeof ScoreGraph, typeof GraphQuery>({
  ...ROUTES.leaderboard.scoreGraph,
  body: undefined,
  query: GraphQuery,
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

/**
 * GET /api/ctftime: the feed CTFtime reads; the same ranking as the leaderboard, frozen with it.
 * `?division=NAME` (issue 19): that division's standings, positions within it.
 */
export const ctftime = endpoint<'GET', undefined, typeof CtftimeFeed, typeof DivisionFilter>({
  ...ROUTES.leaderboard.ctftime,
  body: undefined,
  query: DivisionFilter,
  response: CtftimeFeed,
});
