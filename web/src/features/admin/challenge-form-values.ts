import {
  MAX_ATTEMPTS_LIMIT,
  dynamicScoringProblem,
  pointsFor,
  type Category,
  type ChallengeScoringInput,
  type Difficulty,
  type ScoringFunction,
  type SolutionVisibility,
} from '@ctf/contract';
import { localInputToIso, type ChallengeForm as ChallengeFormBody } from './api/challenges';
import type { FlagValue } from './components/FlagListEditor';
import type { HintValue } from './components/HintListEditor';
import { NO_INSTANCE, instanceBody, type InstanceValues } from './instance-form-values';

// The challenge form's values as typed, the checks run before sending, and the body sent
// (components/ChallengeForm.tsx draws the fields).

/** The fields while editing: selects may still be empty. */
export interface ChallengeFormValues {
  name: string;
  written_by: string;
  category: Category | '';
  difficulty: Difficulty | '';
  flags: FlagValue[];
  /** Per-team flags: the one exact flag is the base of each competitor's own (issue 18). */
  per_team: boolean;
  /** The challenge page offers each competitor its own per-team flag. */
  per_team_on_page: boolean;
  /** Empty: no limit. */
  max_attempts: string;
  description: string;
  files: string[];
  hints: HintValue[];
  /** datetime-local value in the browser's time zone; empty: released. */
  release_at: string;
  /** `_id`s of the challenges to solve first. */
  prerequisites: string[];
  /** Static (points from difficulty) or dynamic with CTFd's parameters, as typed. */
  scoring: ScoringValues;
  /** A container per team (issue 30), as typed. */
  instance: InstanceValues;
  /** The official solution (issue 32): empty content means none. */
  solution: SolutionValues;
}

export interface SolutionValues {
  content: string;
  visibility: SolutionVisibility;
  /** Stored file names (the Upload tab's). */
  files: string[];
}

export const NO_SOLUTION: SolutionValues = { content: '', visibility: 'after_end', files: [] };

export interface ScoringValues {
  type: 'static' | 'dynamic';
  function: ScoringFunction;
  initial: string;
  minimum: string;
  decay: string;
}

const DEFAULT_SCORING: ScoringValues = {
  type: 'static',
  function: 'linear',
  initial: '500',
  minimum: '100',
  decay: '10',
};

/** A stored scoring as the form's fields (a static one keeps the defaults for a switch to dynamic). */
export function scoringValues(s: ChallengeScoringInput): ScoringValues {
  if (s.type === 'static') return DEFAULT_SCORING;
  return {
    type: 'dynamic',
    function: s.function,
    initial: String(s.initial),
    minimum: String(s.minimum),
    decay: String(s.decay),
  };
}

function scoringBody(v: ScoringValues): ChallengeScoringInput {
  if (v.type === 'static') return { type: 'static' };
  return {
    type: 'dynamic',
    function: v.function,
    initial: Number(v.initial),
    minimum: Number(v.minimum),
    decay: Number(v.decay),
  };
}

/** Why the dynamic fields cannot be saved, or '' (the server checks the same rule). */
function scoringProblem(v: ScoringValues): string {
  if (v.type === 'static') return '';
  const whole = (x: string) => /^[0-9]+$/.test(x.trim());
  if (![v.initial, v.minimum, v.decay].every(whole))
    return 'Dynamic scoring needs whole numbers for the initial value, the minimum and the decay.';
  const problem = dynamicScoringProblem({
    initial: Number(v.initial),
    minimum: Number(v.minimum),
    decay: Number(v.decay),
  });
  return problem ? `Dynamic scoring: the ${problem.field} ${problem.message}.` : '';
}

export const EMPTY_CHALLENGE: ChallengeFormValues = {
  name: '',
  written_by: '',
  category: '',
  difficulty: '',
  flags: [{ type: 'static', content: '' }],
  per_team: false,
  per_team_on_page: false,
  max_attempts: '',
  description: '',
  files: [],
  hints: [],
  release_at: '',
  prerequisites: [],
  scoring: DEFAULT_SCORING,
  instance: NO_INSTANCE,
  solution: NO_SOLUTION,
};

const REQUIRED_TEXT = 'Name, author, category, difficulty and flag are required.';
const HINT_TEXT = 'Every hint needs a title and a whole cost of 0 or more.';
const PER_TEAM_TEXT = 'Per-team flags take exactly one exact (case-sensitive) flag: the base.';
const ATTEMPTS_TEXT = `The attempt limit must be a whole number from 1 to ${MAX_ATTEMPTS_LIMIT}, or empty.`;

/** The body the form sends: the flag list, the limit (null: none) and the hints in order. */
function toBody(
  values: ChallengeFormValues,
  category: Category,
  difficulty: Difficulty,
  instance: ChallengeFormBody['instance'],
): ChallengeFormBody {
  return {
    instance,
    name: values.name,
    written_by: values.written_by,
    category,
    difficulty,
    description: values.description,
    files: values.files,
    points: pointsFor(difficulty),
    flags: values.flags.filter((f) => f.content.trim() !== ''),
    per_team: values.per_team,
    per_team_on_page: values.per_team && values.per_team_on_page,
    max_attempts: values.max_attempts.trim() === '' ? null : Number(values.max_attempts),
    release_at: localInputToIso(values.release_at),
    prerequisites: values.prerequisites,
    scoring: scoringBody(values.scoring),
    hints: values.hints.map((h) => ({
      ...(h._id && { _id: h._id }),
      title: h.title,
      content: h.content,
      cost: Number(h.cost),
    })),
    solution:
      values.solution.content.trim() === ''
        ? null
        : {
            content: values.solution.content,
            visibility: values.solution.visibility,
            files: values.solution.files,
          },
  };
}

/**
 * The body to send, or why the values cannot be saved yet: required fields, the per-team base,
 * the attempt limit, the hints and the dynamic scoring, in that order (the server checks again).
 */
export function checkChallengeForm(
  values: ChallengeFormValues,
): { body: ChallengeFormBody } | { problem: string } {
  const { category, difficulty } = values;
  const hasFlag = values.flags.some((f) => f.content.trim() !== '');
  if (!values.name.trim() || !values.written_by.trim() || !hasFlag || !category || !difficulty) {
    return { problem: REQUIRED_TEXT };
  }
  const filled = values.flags.filter((f) => f.content.trim() !== '');
  if (values.per_team && (filled.length !== 1 || filled[0]!.type !== 'static')) {
    return { problem: PER_TEAM_TEXT };
  }
  const limit = values.max_attempts.trim();
  if (
    limit !== '' &&
    !(/^[0-9]+$/.test(limit) && Number(limit) >= 1 && Number(limit) <= MAX_ATTEMPTS_LIMIT)
  ) {
    return { problem: ATTEMPTS_TEXT };
  }
  if (values.hints.some((h) => !h.title.trim() || !/^[0-9]+$/.test(h.cost.trim()))) {
    return { problem: HINT_TEXT };
  }
  const scoring = scoringProblem(values.scoring);
  if (scoring) return { problem: scoring };
  const instance = instanceBody(values.instance);
  if ('problem' in instance) return instance;
  return { body: toBody(values, category, difficulty, instance.instance) };
}
