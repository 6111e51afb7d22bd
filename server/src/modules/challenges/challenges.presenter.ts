import {
  meanRating,
  type AdminChallenge,
  type AdminFlag,
  type AdminHint,
  type ChallengeDetail,
  type ChallengeHint,
  type InstanceDefinition,
  type PublicChallenge,
} from '@ctf/contract';
import { toApiId } from '../../lib/ids.js';
import { scoringFromColumns, type ScoringColumns } from '../scoreboard/scoring-columns.js';
import type { ChallengeSummaryRow } from './challenge-solves.repo.js';

/** docs/product.md §3 Challenge as every participant sees it: never a flag. */
export function presentPublicChallenge(
  row: ChallengeSummaryRow,
  files: readonly string[],
  firstBlood: string | null = null,
): PublicChallenge {
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
    first_blood: firstBlood,
  };
}

/** What only the admin view adds: flags, attempt limit, hints with content, release, prerequisites. */
export interface AdminOnlyFields {
  flags: AdminFlag[];
  per_team: boolean;
  per_team_on_page: boolean;
  instance: InstanceDefinition | null;
  max_attempts: number | null;
  hints: AdminHint[];
  release_at: string | null;
  prerequisites: number[];
  /** The scoring columns (parameters of a dynamic challenge). */
  scoring?: ScoringColumns;
  solution: AdminChallenge['solution'];
  owners: AdminChallenge['owners'];
}

/** The admin view adds the flags (and the first as `flag`), and only the admin view. */
export function presentAdminChallenge(challenge: PublicChallenge, extra: AdminOnlyFields): AdminChallenge {
  return {
    ...challenge,
    flag: extra.flags[0]?.content ?? '',
    flags: extra.flags,
    per_team: extra.per_team,
    per_team_on_page: extra.per_team_on_page,
    max_attempts: extra.max_attempts,
    hints: extra.hints,
    release_at: extra.release_at,
    prerequisites: extra.prerequisites.map(toApiId),
    scoring: extra.scoring ? scoringFromColumns(extra.scoring) : { type: 'static' },
    instance: extra.instance,
    solution: extra.solution,
    owners: extra.owners,
  };
}

/** The challenge page (docs/product.md §7: name, category, difficulty, description, rating, and more). */
export function presentChallengeDetail(
  c: PublicChallenge,
  play: {
    hints: ChallengeHint[];
    attemptsLeft: number | null;
    teamFlag?: string | undefined;
    instance?: boolean;
    solution?: { html: string; files: string[] } | null;
  },
): ChallengeDetail {
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
    first_blood: c.first_blood,
    hints: play.hints,
    attempts_left: play.attemptsLeft,
    ...(play.teamFlag === undefined ? {} : { team_flag: play.teamFlag }),
    ...(play.instance ? { instance: true as const } : {}),
    ...(play.solution ? { solution_html: play.solution.html, solution_files: play.solution.files } : {}),
  };
}
