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

/**
 * The competitor a name means: the team of that name; else the user of that name, whose
 * competitor is its team (named by the team) or, while teamless, the user itself.
 */
export async function findCompetitorByName(
  db: Executor,
  key: string,
): Promise<{ kind: 'team' | 'user'; id: number; name: string } | null> {
  const team = await db
    .selectFrom('teams')
    .select(['id', 'name'])
    .where('name_key', '=', key)
    .executeTakeFirst();
  if (team) return { kind: 'team', id: team.id, name: team.name };
  const user = await db
    .selectFrom('users')
    .leftJoin('teams', 'teams.id', 'users.team_id')
    .select(['users.id', 'users.username', 'users.team_id', 'teams.name as team_name'])
    .where('users.username_key', '=', key)
    .executeTakeFirst();
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
