/**
 * A challenge as admins write it (the form, the import) and see it (View Challenges): scoring,
 * flags, hints and the fields around them. Part of adminApi (api/admin.ts re-exports it).
 */
import { z } from 'zod';
import { IdInput, IdString, markdownWithinBudget } from './common.js';
import { Category, Difficulty, PublicChallenge } from './challenges.js';
import { InstanceDefinition } from './instances.js';
import {
  CHALLENGE_AUTHOR_MAX_LENGTH,
  CHALLENGE_DESCRIPTION_MAX_LENGTH,
  CHALLENGE_NAME_MAX_LENGTH,
  FILE_NAME_MAX_LENGTH,
  FLAG_MAX_LENGTH,
  FLAG_PATTERN_MAX_LENGTH,
  FLAG_TYPES,
  FLAGS_PER_CHALLENGE_MAX,
  HINT_CONTENT_MAX_LENGTH,
  HINT_COST_MAX,
  HINT_TITLE_MAX_LENGTH,
  HINTS_PER_CHALLENGE_MAX,
  MAX_ATTEMPTS_LIMIT,
  PREREQUISITES_MAX,
  SOLUTION_CONTENT_MAX_LENGTH,
  SOLUTION_FILES_MAX,
  SOLUTION_VISIBILITIES,
} from '../rules/constants.js';
import {
  DYNAMIC_DECAY_MAX,
  DYNAMIC_VALUE_MAX,
  SCORING_FUNCTIONS,
  dynamicScoringProblem,
} from '../rules/dynamic-scoring.js';

const wholeNumber = (what: string) =>
  z.number({ error: `${what} must be a number` }).int(`${what} must be a whole number`);

/**
 * A challenge's scoring (issue 16): static (points from difficulty, the default) or dynamic with
 * CTFd's parameters; 1 <= minimum <= initial <= 10,000 and decay >= 0, whole numbers. A refusal
 * names its field (scoring.minimum, ...).
 */
export const ChallengeScoringInput = z.discriminatedUnion('type', [
  z.object({ type: z.literal('static') }),
  z
    .object({
      type: z.literal('dynamic'),
      function: z.enum(SCORING_FUNCTIONS),
      initial: wholeNumber('initial').min(1).max(DYNAMIC_VALUE_MAX),
      minimum: wholeNumber('minimum').min(1).max(DYNAMIC_VALUE_MAX),
      decay: wholeNumber('decay').min(0).max(DYNAMIC_DECAY_MAX),
    })
    .superRefine((s, ctx) => {
      const problem = dynamicScoringProblem(s);
      if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
    }),
]);
export type ChallengeScoringInput = z.infer<typeof ChallengeScoringInput>;

export const FlagType = z.enum(FLAG_TYPES);

/** One accepted flag as an admin sees and writes it. */
export const AdminFlag = z.object({ type: FlagType, content: z.string() });
export type AdminFlag = z.infer<typeof AdminFlag>;

/** A hint with its content and who unlocked it (usernames, unlock order): admin views only. */
export const AdminHint = z.object({
  _id: IdString,
  title: z.string(),
  content: z.string(),
  cost: z.number(),
  unlocked_by: z.array(z.string()),
});
export type AdminHint = z.infer<typeof AdminHint>;

/**
 * A challenge's official solution (issue 32): Markdown, who may see it ('hidden': staff only;
 * 'solved': once the caller's competitor solved the challenge; 'after_end': once the event has
 * ended), and stored files (names from the Upload tab) that follow the same rule on download.
 */
export const SolutionInput = z
  .object({
    content: z
      .string({ error: 'Solution content is required' })
      .max(SOLUTION_CONTENT_MAX_LENGTH, `Solution must be at most ${SOLUTION_CONTENT_MAX_LENGTH} characters`)
      .superRefine(markdownWithinBudget('Solution')),
    visibility: z.enum(SOLUTION_VISIBILITIES, {
      error: "Solution visibility must be 'hidden', 'solved' or 'after_end'",
    }),
    files: z.array(z.string().max(FILE_NAME_MAX_LENGTH)).max(SOLUTION_FILES_MAX).optional().default([]),
  })
  .strict();
export type SolutionInput = z.input<typeof SolutionInput>;
/** The solution as admins see it. */
export const AdminSolution = z.object({
  content: z.string(),
  visibility: z.enum(SOLUTION_VISIBILITIES),
  files: z.array(z.string()),
});
export type AdminSolution = z.infer<typeof AdminSolution>;

/** A challenge's owner: an author (or admin) who reads and changes its answers. */
export const ChallengeOwner = z.object({ _id: IdString, username: z.string() });
export type ChallengeOwner = z.infer<typeof ChallengeOwner>;

/** At most this many owners per challenge. */
export const CHALLENGE_OWNERS_MAX = 20;

/**
 * The admin view adds what only admins may read: the flags (`flag` is the first one, for the
 * single-flag form of docs/product.md), the attempt limit, the hints with their content, the release time
 * and the prerequisites.
 */
export const AdminChallenge = PublicChallenge.extend({
  flag: z.string(),
  flags: z.array(AdminFlag),
  /** Per-team flags: the one static flag is the base of each competitor's own (issue 18). */
  per_team: z.boolean(),
  /** The challenge page offers the competitor its own per-team flag. */
  per_team_on_page: z.boolean(),
  max_attempts: z.number().nullable(),
  hints: z.array(AdminHint),
  release_at: z.string().nullable(),
  prerequisites: z.array(IdString),
  scoring: ChallengeScoringInput,
  /** The container each team starts (issue 30), or null. */
  instance: InstanceDefinition.nullable(),
  /** The official solution (issue 32), or null. */
  solution: AdminSolution.nullable(),
  /** Who may work on it besides admins (none: admins only). */
  owners: z.array(ChallengeOwner),
});
export type AdminChallenge = z.infer<typeof AdminChallenge>;

const required = (what: string, max: number) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .max(max, `${what} must be at most ${max} characters`);

/** A flag as written: a regex pattern may be longer than a submission (it is checked on save). */
export const FlagInput = z.object({
  type: FlagType.optional().default('static'),
  content: required('Flag', FLAG_PATTERN_MAX_LENGTH),
});
export type FlagInput = z.input<typeof FlagInput>;

/** A hint as written: Markdown content; `_id` keeps an existing hint (and its unlocks) when editing. */
export const HintInput = z.object({
  _id: IdInput.optional(),
  title: required('Hint title', HINT_TITLE_MAX_LENGTH),
  content: z
    .string()
    .max(HINT_CONTENT_MAX_LENGTH, `Hint content must be at most ${HINT_CONTENT_MAX_LENGTH} characters`)
    .superRefine(markdownWithinBudget('Hint content')),
  cost: z
    .number({ error: 'Hint cost must be a number' })
    .int('Hint cost must be a whole number')
    .min(0, 'Hint cost must be 0 or more')
    .max(HINT_COST_MAX, `Hint cost must be at most ${HINT_COST_MAX}`),
});
export type HintInput = z.input<typeof HintInput>;

const ChallengeFields = z.object({
  name: required('Name', CHALLENGE_NAME_MAX_LENGTH),
  description: z.string().max(CHALLENGE_DESCRIPTION_MAX_LENGTH).optional().default(''),
  category: Category,
  difficulty: Difficulty,
  written_by: required('Author', CHALLENGE_AUTHOR_MAX_LENGTH),
  /** docs/product.md's single flag: one static flag (used when `flags` is absent). */
  flag: z
    .string()
    .trim()
    .max(FLAG_MAX_LENGTH, `Flag must be at most ${FLAG_MAX_LENGTH} characters`)
    .optional(),
  flags: z.array(FlagInput).max(FLAGS_PER_CHALLENGE_MAX).optional(),
  points: z.unknown().optional(),
  files: z.array(z.string().max(FILE_NAME_MAX_LENGTH)).max(50).optional().default([]),
  /** Missing = static. */
  scoring: ChallengeScoringInput.optional(),
  // Absent on an update: left as it is. null: no limit / released / none.
  max_attempts: z
    .number()
    .int('max_attempts must be a whole number')
    .min(1, 'max_attempts must be at least 1')
    .max(MAX_ATTEMPTS_LIMIT, `max_attempts must be at most ${MAX_ATTEMPTS_LIMIT}`)
    .nullable()
    .optional(),
  hints: z.array(HintInput).max(HINTS_PER_CHALLENGE_MAX).optional(),
  release_at: z.iso
    .datetime({ offset: true, error: 'release_at must be an ISO 8601 time' })
    .nullable()
    .optional(),
  prerequisites: z.array(IdInput).max(PREREQUISITES_MAX).optional(),
  /**
   * Per-team flags (issue 18): the challenge's one static flag is a base, and each competitor's
   * accepted flag is derived from it (docs/decisions/0007-integrity.md). Absent on an update: left.
   */
  per_team: z.boolean({ error: 'per_team must be true or false' }).optional(),
  /** The challenge page offers the competitor its own per-team flag (per_team only). Absent: left. */
  per_team_on_page: z.boolean({ error: 'per_team_on_page must be true or false' }).optional(),
  /** A container per team (issue 30); null: none. Absent on an update: left as it is. */
  instance: InstanceDefinition.nullable().optional(),
  /** The official solution (issue 32); null: none. Absent on an update: left as it is. */
  solution: SolutionInput.nullable().optional(),
  /** Admins only: the users who own the challenge (absent: the creator on create, kept on update). */
  owner_ids: z.array(IdInput).max(CHALLENGE_OWNERS_MAX).optional(),
});

/** The flag list a body means: `flags` when given, else the old single `flag` as one static flag. */
export function flagsOf(body: { flag?: string | undefined; flags?: FlagInput[] | undefined }): FlagInput[] {
  if (body.flags && body.flags.length > 0) return body.flags;
  return body.flag ? [{ type: 'static', content: body.flag }] : [];
}

const atLeastOneFlag = (body: z.infer<typeof ChallengeFields>, ctx: z.RefinementCtx) => {
  if (flagsOf(body).length === 0)
    ctx.addIssue({ code: 'custom', path: ['flags'], message: 'Flag is required' });
};

/**
 * The challenge form (docs/product.md §5): points are accepted but ignored; the server derives them.
 * At least one flag, as `flag` or `flags`.
 */
export const ChallengeInput = ChallengeFields.superRefine(atLeastOneFlag);
export type ChallengeInput = z.input<typeof ChallengeInput>;
export type ChallengeInputParsed = z.output<typeof ChallengeInput>;

/** Update Challenge's body: the same fields, and the challenge's id. */
export const UpdateChallengeInput = ChallengeFields.extend({ challenge_id: IdInput }).superRefine(
  atLeastOneFlag,
);
