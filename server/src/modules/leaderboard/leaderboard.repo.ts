import { sql } from 'kysely';
import type { Dialect } from '../../db/connect.js';
import { countedSolve, countedUnlock } from '../../db/counted.js';
import type { Executor } from '../../db/schema.js';

export interface CompetitorRow {
  kind: 'team' | 'user';
  id: number;
  name: string;
  points: number;
  last_solve_at: string;
}

/**
 * The leaderboard (or, with `only`, the rows of just those teams and teamless users, computed
 * the same way) in three grouped queries and a union (DESIGN.md §4, §7), ranked by the database:
 * - teams: per (team, challenge) the first solve recorded with the team by a non-admin, joined to
 *   teams that still exist, summed per team; the tie time is the latest of those first solves;
 * - users with no team (or whose team is gone), not admins: their solves recorded with no team;
 * - minus the costs of the hints each unlocked (unlocks belong to a competitor like solves).
 * Names are ordered by code point on both dialects (PostgreSQL's "C" collation = SQLite's BINARY),
 * as the reference model in contract/src/rules/scoring.ts does.
 */
export async function listCompetitors(
  db: Executor,
  dialect: Dialect,
  only?: { teamIds: readonly number[]; userIds: readonly number[] },
): Promise<CompetitorRow[]> {
  if (only && only.teamIds.length === 0 && only.userIds.length === 0) return [];
  // With `only`, an empty id list must match nothing (ids are positive; SQL has no empty IN list).
  const ids = (list: readonly number[]) => (list.length ? list : [-1]);

  const teamFirsts = db
    .selectFrom('solves')
    .where('solves.team_id', 'is not', null)
    .$if(only !== undefined, (q) => q.where('solves.team_id', 'in', ids(only!.teamIds)))
    // Admins and hidden competitors count nowhere (one shared filter, db/counted.ts).
    .where(countedSolve)
    .groupBy(['solves.team_id', 'solves.challenge_id'])
    .select([
      'solves.team_id',
      'solves.challenge_id',
      (eb) => eb.fn.min<string>('solves.created_at').as('first_at'),
    ])
    .as('tf');

  const teamTotals = db
    .selectFrom(teamFirsts)
    .innerJoin('challenges', 'challenges.id', 'tf.challenge_id')
    .groupBy('tf.team_id')
    .select([
      'tf.team_id',
      (eb) => eb.fn.sum<number>('challenges.points').as('points'),
      (eb) => eb.fn.max<string>('tf.first_at').as('last_solve_at'),
    ])
    .as('tt');

  // Hint unlocks cost their competitor points (DESIGN.md §8): summed per team, admins' and hidden
  // competitors' left out (db/counted.ts).
  const teamCosts = db
    .selectFrom('hint_unlocks')
    .innerJoin('hints', 'hints.id', 'hint_unlocks.hint_id')
    .where('hint_unlocks.team_id', 'is not', null)
    .$if(only !== undefined, (q) => q.where('hint_unlocks.team_id', 'in', ids(only!.teamIds)))
    .where(countedUnlock)
    .groupBy('hint_unlocks.team_id')
    .select(['hint_unlocks.team_id', (eb) => eb.fn.sum<number>('hints.cost').as('cost')])
    .as('tc');
  const teamNet = sql<number>`tt.points - coalesce(tc.cost, 0)`;
  const teams = db
    .selectFrom(teamTotals)
    .innerJoin('teams', 'teams.id', 'tt.team_id')
    .leftJoin(teamCosts, 'tc.team_id', 'tt.team_id')
    .where(teamNet, '>', 0)
    .select([
      sql<'team' | 'user'>`'team'`.as('kind'),
      'teams.id as id',
      'teams.name as name',
      teamNet.as('points'),
      'tt.last_solve_at as last_solve_at',
    ]);

  const userCosts = db
    .selectFrom('hint_unlocks')
    .innerJoin('hints', 'hints.id', 'hint_unlocks.hint_id')
    .where('hint_unlocks.team_id', 'is', null)
    .$if(only !== undefined, (q) => q.where('hint_unlocks.user_id', 'in', ids(only!.userIds)))
    .where(countedUnlock)
    .groupBy('hint_unlocks.user_id')
    .select(['hint_unlocks.user_id', (eb) => eb.fn.sum<number>('hints.cost').as('cost')])
    .as('uc');
  // One cost row per user, so max() is that row's cost inside the per-user group.
  const soloNet = sql<number>`sum(challenges.points) - coalesce(max(uc.cost), 0)`;
  const soloUsers = db
    .selectFrom('solves')
    .innerJoin('users', 'users.id', 'solves.user_id')
    .innerJoin('challenges', 'challenges.id', 'solves.challenge_id')
    .leftJoin('teams', 'teams.id', 'users.team_id')
    .leftJoin(userCosts, 'uc.user_id', 'users.id')
    .where('solves.team_id', 'is', null)
    .$if(only !== undefined, (q) => q.where('users.id', 'in', ids(only!.userIds)))
    .where(countedSolve)
    .where('teams.id', 'is', null)
    .groupBy(['users.id', 'users.username'])
    .having(soloNet, '>', 0)
    .select([
      sql<'team' | 'user'>`'user'`.as('kind'),
      'users.id as id',
      'users.username as name',
      soloNet.as('points'),
      (eb) => eb.fn.max<string>('solves.created_at').as('last_solve_at'),
    ]);

  const byName = dialect === 'postgres' ? sql`c.name collate "C"` : sql`c.name`;
  // A correct flag names one team or one teamless user: the other half is not read at all (the
  // planner would scan every teamless solve to match an impossible id).
  const source =
    only && only.userIds.length === 0
      ? teams.as('c')
      : only && only.teamIds.length === 0
        ? soloUsers.as('c')
        : teams.unionAll(soloUsers).as('c');
  const rows = await db
    .selectFrom(source)
    .select(['c.kind', 'c.id', 'c.name', 'c.points', 'c.last_solve_at'])
    .orderBy('c.points', 'desc')
    .orderBy('c.last_solve_at')
    .orderBy(byName)
    .orderBy('c.kind')
    .orderBy('c.id')
    .execute();
  return rows.map((r) => ({ ...r, points: Number(r.points) }));
}
