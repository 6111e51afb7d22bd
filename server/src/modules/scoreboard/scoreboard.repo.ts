import { isUncountedUser } from '../../db/counted.js';
import type { Executor } from '../../db/schema.js';
import type { BoardSnapshot, BoardUser } from './score-board.js';
import { scoringFromColumns } from './scoring-columns.js';

const BOARD_USER_COLUMNS = [
  'id',
  'username',
  'is_admin',
  'role',
  'competing',
  'hidden',
  'banned',
  'team_id',
  'division_id',
] as const;

// The one filter of what counts (db/counted.ts): admins, non-competing staff, hidden and banned
// users, hidden and banned teams' solves.
function boardUser(
  u: Parameters<typeof isUncountedUser>[0] & {
    id: number;
    username: string;
    team_id: number | null;
    division_id: number | null;
  },
): BoardUser {
  return {
    id: u.id,
    name: u.username,
    excluded: isUncountedUser(u),
    teamId: u.team_id,
    divisionId: u.division_id,
  };
}

/** These users as the board knows its users (players who signed up after it was read). */
export async function readBoardUsers(db: Executor, ids: readonly number[]): Promise<BoardUser[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('users').select(BOARD_USER_COLUMNS).where('id', 'in', ids).execute();
  return rows.map(boardUser);
}

/**
 * What the score board is built from, one read of each table: challenges with their scoring, users
 * (who is left out), teams, every solve and every hint unlock with its cost (with a cutoff: only
 * those before it), in id order.
 * 50,000 solves are ~2 MB of rows; the board keeps them as credits.
 */
export async function readBoardSnapshot(db: Executor, cutoff: string | null): Promise<BoardSnapshot> {
  const [challenges, users, teams, solves, unlocks, divisions] = await Promise.all([
    db
      .selectFrom('challenges')
      .select([
        'id',
        'name',
        'points',
        'scoring_type',
        'scoring_function',
        'scoring_initial',
        'scoring_minimum',
        'scoring_decay',
        'release_at',
      ])
      .execute(),
    db.selectFrom('users').select(BOARD_USER_COLUMNS).execute(),
    db.selectFrom('teams').select(['id', 'name', 'hidden', 'banned', 'leader_id']).execute(),
    db
      .selectFrom('solves')
      .select(['id', 'user_id', 'team_id', 'challenge_id', 'created_at'])
      .$if(cutoff !== null, (q) => q.where('created_at', '<', cutoff!))
      .orderBy('id')
      .execute(),
    db
      .selectFrom('hint_unlocks')
      .innerJoin('hints', 'hints.id', 'hint_unlocks.hint_id')
      .select([
        'hint_unlocks.id',
        'hint_unlocks.user_id',
        'hint_unlocks.team_id',
        'hints.cost',
        'hint_unlocks.created_at',
      ])
      .$if(cutoff !== null, (q) => q.where('hint_unlocks.created_at', '<', cutoff!))
      .execute(),
    db.selectFrom('divisions').select(['id', 'name']).orderBy('position').orderBy('id').execute(),
  ]);
  return {
    challenges: challenges.map((c) => ({
      id: c.id,
      name: c.name,
      points: c.points,
      scoring: scoringFromColumns(c),
      releaseAt: c.release_at,
    })),
    users: users.map(boardUser),
    teams: teams.map((t) => ({
      id: t.id,
      name: t.name,
      hidden: t.hidden === 1 || t.banned === 1,
      leaderId: t.leader_id,
    })),
    divisions,
    solves,
    unlocks: unlocks.map((u) => ({ ...u, cost: Number(u.cost) })),
  };
}

/** Every solve with its solver's and team's names, oldest first (the solves export). */
export async function listSolvesForExport(
  db: Executor,
): Promise<
  { id: number; user_id: number; challenge_id: number; team_id: number | null; created_at: string }[]
> {
  return db
    .selectFrom('solves')
    .select(['id', 'user_id', 'challenge_id', 'team_id', 'created_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
