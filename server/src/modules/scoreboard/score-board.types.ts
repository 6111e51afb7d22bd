import type { ChallengeScoring } from '@ctf/contract';

/** The shapes the score board (score-board.ts) is built from and answers. */

export interface BoardChallenge {
  id: number;
  name: string;
  /** The difficulty's points (what a static challenge is worth). */
  points: number;
  scoring: ChallengeScoring;
  /** ISO 8601 UTC when it is released (issue 17), or null: public lists name it only from then. */
  releaseAt: string | null;
}

export interface BoardUser {
  id: number;
  name: string;
  /** Left out of every count and score (admins; hidden users share this filter). */
  excluded: boolean;
  teamId: number | null;
  /** The user's division (issue 19); null or absent: none. */
  divisionId?: number | null;
}

export interface BoardSolve {
  id: number;
  user_id: number;
  team_id: number | null;
  challenge_id: number;
  /** ISO 8601 UTC. */
  created_at: string;
}

/** What a competitor scores a challenge for: the first solve credited to it. */
export interface Credit {
  challengeId: number;
  userId: number;
  time: string;
  solveId: number;
}

export interface Competitor {
  kind: 'team' | 'user';
  id: number;
  name: string;
  credits: Map<number, Credit>;
  /** What its hint unlocks cost, and each unlock counted (by id: applying one twice is harmless). */
  costs: number;
  unlocks: Map<number, { time: string; cost: number }>;
  /** Its awards by id (points, negative for a penalty, and time), and their sum. */
  awards: Map<number, { time: string; points: number }>;
  bonus: number;
  points: number;
  /** The latest of its credited solves' and awards' times (the tie-break). */
  lastSolveAt: string;
  /** A team's is its leader's, a user's their own (issue 19); null: none. */
  divisionId: number | null;
}

/** A hint unlock: its cost leaves the score of the competitor it was recorded for (issue 17). */
export interface BoardUnlock {
  id: number;
  user_id: number;
  team_id: number | null;
  cost: number;
  /** ISO 8601 UTC. */
  created_at: string;
}

/**
 * An award (issue 31): to a team (user_id null), or to a user with the team they were on then
 * (null: none). It counts for that competitor like a solve recorded with the same ids.
 */
export interface BoardAward {
  id: number;
  user_id: number | null;
  team_id: number | null;
  points: number;
  /** ISO 8601 UTC. */
  created_at: string;
}

export interface BoardSnapshot {
  challenges: readonly BoardChallenge[];
  users: readonly BoardUser[];
  /** Teams; a hidden team's solves and unlocks count nowhere (db/counted.ts). */
  teams: readonly { id: number; name: string; hidden?: boolean; leaderId?: number }[];
  /** The site's divisions (issue 19), in order; empty or absent: none defined. */
  divisions?: readonly { id: number; name: string }[];
  /** Every solve (before the cutoff, when there is one), in id order. */
  solves: readonly BoardSolve[];
  /** Every hint unlock (before the cutoff, when there is one). */
  unlocks: readonly BoardUnlock[];
  /** Every award (before the cutoff, when there is one); absent: none. */
  awards?: readonly BoardAward[];
}
