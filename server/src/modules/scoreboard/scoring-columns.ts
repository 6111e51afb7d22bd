import type { ChallengeScoring, ScoringFunction } from '@ctf/contract';

/** A challenge's scoring columns (migration 0011). */
export interface ScoringColumns {
  scoring_type: string;
  scoring_function: string | null;
  scoring_initial: number | null;
  scoring_minimum: number | null;
  scoring_decay: number | null;
}

/** The scoring a challenge row holds; anything incomplete reads as static. */
export function scoringFromColumns(row: ScoringColumns): ChallengeScoring {
  if (
    row.scoring_type !== 'dynamic' ||
    row.scoring_initial === null ||
    row.scoring_minimum === null ||
    row.scoring_decay === null
  )
    return { type: 'static' };
  return {
    type: 'dynamic',
    function: (row.scoring_function === 'logarithmic' ? 'logarithmic' : 'linear') as ScoringFunction,
    initial: Number(row.scoring_initial),
    minimum: Number(row.scoring_minimum),
    decay: Number(row.scoring_decay),
  };
}

/** The columns that store a scoring. */
export function columnsFromScoring(s: ChallengeScoring): ScoringColumns {
  if (s.type === 'static')
    return {
      scoring_type: 'static',
      scoring_function: null,
      scoring_initial: null,
      scoring_minimum: null,
      scoring_decay: null,
    };
  return {
    scoring_type: 'dynamic',
    scoring_function: s.function,
    scoring_initial: s.initial,
    scoring_minimum: s.minimum,
    scoring_decay: s.decay,
  };
}
