import { expressionBuilder, sql, type ExpressionBuilder } from 'kysely';
import type { Role } from '@ctf/contract';
import type { Database } from './schema.js';

/** Builds the two subqueries below outside any one query (each query embeds them as written). */
const sub = expressionBuilder<Database, never>();

/**
 * The users whose solves and unlocks never count: admins, monitors and authors an admin has not
 * marked as competing (staff hold answers, so they do not play by default), hidden and banned
 * competitors. `isUncountedUser` below is the same rule for the board built in memory.
 *
 * Its constants are written into the query text (literals, not bound values): the partial index
 * users_uncounted_idx (migration 0021) holds exactly these users under the same condition, and
 * the query planner reads the set from it only when the query's condition is the index's.
 */
const UNCOUNTED_USERS = sub
  .selectFrom('users')
  .select('users.id')
  .where((u) =>
    u.or([
      u('users.is_admin', '=', u.lit(1)),
      u.and([
        u('users.role', 'in', [sql.lit<Role>('monitor'), sql.lit<Role>('author')]),
        u('users.competing', '=', u.lit(0)),
      ]),
      u('users.hidden', '=', u.lit(1)),
      u('users.banned', '=', u.lit(1)),
    ]),
  );

/** THE rule of UNCOUNTED_USERS, for a user row read whole (the score board's snapshot). */
export function isUncountedUser(u: {
  is_admin: number;
  role: Role;
  competing: number;
  hidden: number;
  banned: number;
}): boolean {
  return (
    u.is_admin === 1 ||
    ((u.role === 'monitor' || u.role === 'author') && u.competing === 0) ||
    u.hidden === 1 ||
    u.banned === 1
  );
}

/** The hidden and banned teams: what is credited to them never counts (teams_uncounted_idx). */
const HIDDEN_TEAMS = sub
  .selectFrom('teams')
  .select('teams.id')
  .where((t) => t.or([t('teams.hidden', '=', t.lit(1)), t('teams.banned', '=', t.lit(1))]));

/**
 * THE filter of what counts in public (docs/product.md §15): a solve counts when its solver is neither an
 * admin nor non-competing staff nor hidden nor banned, and the team it was credited to (if any) is neither hidden nor
 * banned (issue 29: a banned competitor is in no public list either). Every public figure
 * (leaderboard, solve counts, team completions, and the views built on them) reads solves through
 * this one expression, so hiding someone takes them out everywhere at once, as being an admin does.
 *
 * NOTE: admins and hidden competitors are few; they are excluded as sets (`not in`), so the
 * database still reads solves from its covering indexes alone (migration 0003). `team_id is null`
 * is spelled out: `null not in (…)` is null, which would drop every teamless solve.
 */
export function countedSolve(eb: ExpressionBuilder<Database, 'solves'>) {
  return eb.and([
    eb('solves.user_id', 'not in', UNCOUNTED_USERS),
    eb.or([eb('solves.team_id', 'is', null), eb('solves.team_id', 'not in', HIDDEN_TEAMS)]),
  ]);
}

/**
 * The same filter for hint unlocks, which belong to a competitor like solves (docs/product.md §15): an
 * unlock costs its competitor only when the unlocker is neither an admin nor hidden and its team
 * (if any) is not hidden, so a hidden competitor's unlocks leave the board with its solves.
 */
export function countedUnlock(eb: ExpressionBuilder<Database, 'hint_unlocks'>) {
  return eb.and([
    eb('hint_unlocks.user_id', 'not in', UNCOUNTED_USERS),
    eb.or([eb('hint_unlocks.team_id', 'is', null), eb('hint_unlocks.team_id', 'not in', HIDDEN_TEAMS)]),
  ]);
}
