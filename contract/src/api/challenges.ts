import { z } from 'zod';
import { IdInput, IdString, MessageResponse, endpoint } from './common.js';
import { ROUTES } from './routes.js';
import { CATEGORIES, DIFFICULTIES, FLAG_MAX_LENGTH } from '../rules/constants.js';

export const Category = z.enum(CATEGORIES);
export const Difficulty = z.enum(DIFFICULTIES);
/** 'dynamic' when the challenge's value falls as it is solved (docs/product.md §15). */
export const ScoringType = z.enum(['static', 'dynamic']);

/** docs/product.md §3 Challenge as every participant sees it: never a flag. */
export const PublicChallenge = z.object({
  _id: IdString,
  name: z.string(),
  description: z.string(),
  category: z.string(),
  difficulty: z.string(),
  written_by: z.string(),
  /** The current value: the difficulty's points, or the dynamic formula's (as of a freeze, in public). */
  points: z.number(),
  scoring_type: ScoringType,
  rating: z.number(),
  is_active: z.boolean(),
  user_completions: z.number(),
  hlinks: z.array(z.string()),
  /** The competitor (team, or user without a team) of the first counted solve, or null (issue 15). */
  first_blood: z.string().nullable(),
  /**
   * Present when the challenge has prerequisites (their `_id`s): the list then leaves out its
   * description and files; the detail shows them once the caller's competitor solved these.
   */
  prerequisites: z.array(IdString).optional(),
});
export type PublicChallenge = z.infer<typeof PublicChallenge>;

/** GET /api/ctf/challenges answers the list, or {message} while the site is inactive. */
export const challengeList = endpoint({
  ...ROUTES.challenges.challengeList,
  body: undefined,
  response: z.union([z.array(PublicChallenge), MessageResponse]),
});

/** A hint on the challenge page: its content only once the caller's competitor unlocked it. */
export const ChallengeHint = z.object({
  _id: IdString,
  title: z.string(),
  cost: z.number(),
  unlocked: z.boolean(),
  content: z.string().optional(),
});
export type ChallengeHint = z.infer<typeof ChallengeHint>;

export const ChallengeDetail = z.object({
  _id: IdString,
  name: z.string(),
  category: z.string(),
  difficulty: z.string(),
  description: z.string(),
  rating: z.number(),
  points: z.number(),
  scoring_type: ScoringType,
  written_by: z.string(),
  hlinks: z.array(z.string()),
  user_completions: z.number(),
  /** The competitor of the first counted solve, or null. */
  first_blood: z.string().nullable(),
  hints: z.array(ChallengeHint),
  /** Wrong attempts the caller has left; null when the challenge has no limit. */
  attempts_left: z.number().nullable(),
  /** Present (true) when the caller has not solved the prerequisites yet. */
  locked: z.literal(true).optional(),
  /**
   * The caller's own per-team flag: only on a challenge built to read it (per_team_on_page), only
   * for a competitor (never an admin), never in the locked view (issue 18).
   */
  team_flag: z.string().optional(),
  /** Present (true) when the challenge starts a container per team (issue 30). */
  instance: z.literal(true).optional(),
  /**
   * The official solution, rendered and sanitised (issue 32): present only when the caller may see
   * it (its visibility, docs/decisions/0013-after-the-event.md), absent otherwise.
   */
  solution_html: z.string().optional(),
  /** The solution's files (download names), with solution_html only. */
  solution_files: z.array(z.string()).optional(),
});
export type ChallengeDetail = z.infer<typeof ChallengeDetail>;

export const challengeDetail = endpoint({
  ...ROUTES.challenges.challengeDetail,
  body: z.object({ challenge_id: IdInput }),
  response: ChallengeDetail,
});

export const submitFlag = endpoint({
  ...ROUTES.challenges.submitFlag,
  body: z.object({
    flag: z.string().min(1, 'Flag is required').max(FLAG_MAX_LENGTH, 'Flag is too long'),
    challenge_id: IdInput,
  }),
  response: MessageResponse,
});

export const unlockHint = endpoint({
  ...ROUTES.challenges.unlockHint,
  body: z.object({ hint_id: IdInput }),
  response: z.object({ message: z.string(), content: z.string() }),
});

const RATING_RANGE = 'rating must be a whole number from 1 to 5';

/**
 * Integer 1..5; a numeric string is accepted (the rating page sends the select's value). The
 * server puts 'Error: ' in front of every refusal of the rating call (docs/product.md §8).
 */
export const RatingInput = z
  .union(
    [
      z.number(),
      z
        .string()
        .regex(/^\s*[0-9]+\s*$/)
        .transform(Number),
    ],
    { error: RATING_RANGE },
  )
  .pipe(z.number().int(RATING_RANGE).min(1, RATING_RANGE).max(5, RATING_RANGE));

export const rateChallenge = endpoint({
  ...ROUTES.challenges.rateChallenge,
  body: z.object({ challenge_id: IdInput, rating: RatingInput }),
  response: MessageResponse,
});

export { DOWNLOAD_PATH_PREFIX } from './routes.js';
