import type { Executor } from '../../db/schema.js';

// What per-team flags read: the challenge's base flag and the competitors a flag may belong to.

/** A challenge's name, per-team switch and first flag (the base of a per-team challenge). */
export async function findPerTeamChallenge(
  db: Executor,
  id: number,
): Promise<{ id: number; name: string; per_team: number; base: string | null } | null> {
  const row = await db
    .selectFrom('challenges')
    .select(['id', 'name', 'per_team'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const flag = await db
    .selectFrom('challenge_flags')
    .select('content')
    .where('challenge_id', '=', id)
    .orderBy('position')
    .executeTakeFirst();
  return { ...row, base: flag?.content ?? null };
}

type Competitor = { kind: 'team' | 'user'; id: number; name: string };

/** A team by id, or by its name's key. */
export async function findTeamCompetitor(
  db: Executor,
  by: { id: number } | { key: string },
): Promise<Competitor | null> {
  let query = db.selectFrom('teams').select(['id', 'name']);
  query = 'id' in by ? query.where('id', '=', by.id) : query.where('name_key', '=', by.key);
  const team = await query.executeTakeFirst();
  return team ? { kind: 'team', id: team.id, name: team.name } : null;
}

/**
 * The competitor a user is, by the user's id or name key: its team (named by the team) or, while
 * teamless, the user itself.
 */
export async function findUserCompetitor(
  db: Executor,
  by: { id: number } | { key: string },
): Promise<Competitor | null> {
  let query = db
    .selectFrom('users')
    .leftJoin('teams', 'teams.id', 'users.team_id')
    .select(['users.id', 'users.username', 'users.team_id', 'teams.name as team_name']);
  query = 'id' in by ? query.where('users.id', '=', by.id) : query.where('users.username_key', '=', by.key);
  const user = await query.executeTakeFirst();
  if (!user) return null;
  return user.team_id !== null && user.team_name !== null
    ? { kind: 'team', id: user.team_id, name: user.team_name }
    : { kind: 'user', id: user.id, name: user.username };
}

/** Every competitor: each team, and each user without one (the per-team flag signal's candidates). */
export async function listCompetitors(
  db: Executor,
): Promise<{ kind: 'team' | 'user'; id: number; name: string }[]> {
  const [teams, users] = await Promise.all([
    db.selectFrom('teams').select(['id', 'name']).execute(),
    db.selectFrom('users').select(['id', 'username']).where('team_id', 'is', null).execute(),
  ]);
  return [
    ...teams.map((t) => ({ kind: 'team' as const, id: t.id, name: t.name })),
    ...users.map((u) => ({ kind: 'user' as const, id: u.id, name: u.username })),
  ];
}
