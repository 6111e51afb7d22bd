/**
 * A challenge's current value (docs/product.md §15, issue 16). Static: the points of its difficulty.
 * Dynamic: CTFd's published formulas, so authors can carry their numbers over. With n the number of
 * solves of the challenge by users who count (not admins, not hidden) and n' = max(n - 1, 0):
 * - linear: max(minimum, ceil(initial - decay * n'))
 * - logarithmic: max(minimum, ceil(((minimum - initial) / decay^2) * n'^2 + initial)), where decay is
 *   the solve count at which the value reaches the minimum (decay 0 counts as 1).
 * Every solver gets the current value (retroactive): values are derived when scores are built,
 * never stored per solve. The operations run in CTFd's order, so the floating-point results match.
 */

export const SCORING_FUNCTIONS = ['linear', 'logarithmic'] as const;
export type ScoringFunction = (typeof SCORING_FUNCTIONS)[number];

/** The largest initial (and so minimum) value a dynamic challenge may have. */
export const DYNAMIC_VALUE_MAX = 10_000;
/** The largest decay accepted (a sanity bound: a decay this large never moves a value). */
export const DYNAMIC_DECAY_MAX = 1_000_000;

export interface DynamicScoring {
  type: 'dynamic';
  function: ScoringFunction;
  initial: number;
  minimum: number;
  decay: number;
}
export type ChallengeScoring = { type: 'static' } | DynamicScoring;

export const STATIC_SCORING: ChallengeScoring = { type: 'static' };

/** The value of a dynamic challenge after solveCount solves that count. */
export function dynamicValue(s: DynamicScoring, solveCount: number): number {
  const n = Math.max(solveCount - 1, 0);
  if (s.function === 'linear') return Math.max(s.minimum, Math.ceil(s.initial - s.decay * n));
  const decay = s.decay === 0 ? 1 : s.decay;
  return Math.max(s.minimum, Math.ceil(((s.minimum - s.initial) / decay ** 2) * n ** 2 + s.initial));
}

/** The current value: the difficulty's points for a static challenge, the formula's otherwise. */
export function challengeValue(scoring: ChallengeScoring, staticPoints: number, solveCount: number): number {
  return scoring.type === 'static' ? staticPoints : dynamicValue(scoring, solveCount);
}

/** Why a dynamic scoring cannot be stored, with the field it concerns; null when it can. */
export function dynamicScoringProblem(s: {
  initial: number;
  minimum: number;
  decay: number;
}): { field: 'initial' | 'minimum' | 'decay'; message: string } | null {
  const whole = (v: number) => Number.isInteger(v);
  if (!whole(s.initial) || s.initial < 1 || s.initial > DYNAMIC_VALUE_MAX)
    return { field: 'initial', message: `must be a whole number from 1 to ${DYNAMIC_VALUE_MAX}` };
  if (!whole(s.minimum) || s.minimum < 1)
    return { field: 'minimum', message: 'must be a whole number of at least 1' };
  if (s.minimum > s.initial) return { field: 'minimum', message: 'must not be above the initial value' };
  if (!whole(s.decay) || s.decay < 0 || s.decay > DYNAMIC_DECAY_MAX)
    return { field: 'decay', message: `must be a whole number from 0 to ${DYNAMIC_DECAY_MAX}` };
  return null;
}
