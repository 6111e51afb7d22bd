import { meanRating, type AdminChallenge, type ChallengeDetail, type PublicChallenge } from '@ctf/contract';
import { toApiId } from '../../lib/ids.js';
import { scoringFromColumns, type ScoringColumns } from '../scoreboard/scoring-columns.js';
import type { ChallengeSummaryRow } from './challenges.repo.js';

/** SPEC.md §3 Challenge as every participant sees it: never a flag. */
export function presentPublicChallenge(row: ChallengeSummaryRow, files: readonly string[]): PublicChallenge {
  return {
    _id: toApiId(row.id),
    name: row.name,
    description: row.description,
    category: row.category,
    difficulty: row.difficulty,
    written_by: row.written_by,
    points: row.points,
    scoring_type: row.scoring_type === 'dynamic' ? 'dynamic' : 'static',
    rating: meanRating(row.rating_sum, row.rating_count),
    is_active: row.is_active === 1,
    user_completions: row.solve_count,
    hlinks: [...files],
  };
}

/** The admin view adds the flag and the scoring's parameters, and only the admin view. */
export function presentAdminChallenge(
  challenge: PublicChallenge,
  flag: string,
  scoring: ScoringColumns | undefined,
): AdminChallenge {
  return { ...challenge, flag, scoring: scoring ? scoringFromColumns(scoring) : { type: 'static' } };
}

/** The challenge page (SPEC.md §7: name, category, difficulty, description, rating, and more). */
export function presentChallengeDetail(c: PublicChallenge): ChallengeDetail {
  return {
    _id: c._id,
    name: c.name,
    category: c.category,
    difficulty: c.difficulty,
    description: c.description,
    rating: c.rating,
    points: c.points,
    scoring_type: c.scoring_type,
    written_by: c.written_by,
    hlinks: c.hlinks,
    user_completions: c.user_completions,
  };
}
