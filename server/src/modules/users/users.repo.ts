import { sql } from 'kysely';
import type { Role } from '@ctf/contract';
import type { Executor, UserRow } from '../../db/schema.js';
import { prepared } from '../../db/prepared.js';
import { USER_COLUMNS } from '../../db/user-columns.js';
import { roleColumns } from '../../db/user-role.js';
import type { UserWithTeam } from './users.presenter.js';

export async function findUserById(db: Executor, id: number): Promise<UserRow | null> {
  return (
    (await db.selectFrom('users').select(USER_COLUMNS).where('users.id', '=', id).executeTakeFirst()) ?? null
  );
}

export async function findUserByUsernameKey(db: Executor, key: string): Promise<UserRow | null> {
  return (
    (await db
      .selectFrom('users')
      .select(USER_COLUMNS)
      .where('users.username_key', '=', key)
      .executeTakeFirst()) ?? null
  );
}

/**
 * Team names and usernames are one namespace (by their NFKC key): whether a key names a user, a
 * team, or nothing. Read by both the user and the team creation paths, so it lives here, below.
 */
export async function findNameOwner(db: Executor, key: string): Promise<'user' | 'team' | null> {
  const owners = await nameOwnersQuery.first(db, { key });
  if (owners?.user_id != null) return 'user';
  return owners?.team_id != null ? 'team' : null;
}

/** The user and the team a name key belongs to, in one statement (each column null when none). */
const nameOwnersQuery = prepared<{ key: string }, { user_id: number | null; team_id: number | null }>(
  (db, bind) =>
    db.selectNoFrom((eb) => [
      eb.selectFrom('users').select('id').where('username_key', '=', bind('key')).limit(1).as('user_id'),
      eb.selectFrom('teams').select('id').where('name_key', '=', bind('key')).limit(1).as('team_id'),
    ]),
);

/** The account whose stored address is this one (ignoring case), or null. */
export async function findUserIdByEmail(db: Executor, email: string): Promise<number | null> {
  const row = await userByEmail.first(db, { email: email.trim().toLowerCase() });
  return row?.id ?? null;
}

const userByEmail = prepared<{ email: string }, { id: number }>((db, bind) =>
  db
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(email)`, '=', bind('email')),
);

export async function findUserByIdentity(
  db: Executor,
  provider: string,
  providerUserId: string,
): Promise<UserRow | null> {
  return (await userByIdentity.first(db, { provider, providerUserId })) ?? null;
}

const userByIdentity = prepared<{ provider: string; providerUserId: string }, UserRow>((db, bind) =>
  db
    .selectFrom('identities')
    .innerJoin('users', 'users.id', 'identities.user_id')
    .select(USER_COLUMNS)
    .where('identities.provider', '=', bind('provider'))
    .where('identities.provider_user_id', '=', bind('providerUserId')),
);

export async function insertUser(
  db: Executor,
  row: {
    username: string;
    username_key: string;
    avatar_url: string;
    email: string;
    role: Role;
    created_at: string;
  },
): Promise<UserRow> {
  const { role, is_admin } = roleColumns(row.role);
  const inserted = await insertUserQuery.first(db, { ...row, role, is_admin });
  if (!inserted) throw new Error('the new user was not inserted');
  return inserted;
}

/** USER_COLUMNS as an insert's RETURNING names them (its own table's columns, unqualified). */
const RETURNED_USER_COLUMNS = USER_COLUMNS.map((c) =>
  c.slice('users.'.length),
) as unknown as readonly ((typeof USER_COLUMNS)[number] extends `users.${infer C}` ? C : never)[];

const insertUserQuery = prepared<
  {
    username: string;
    username_key: string;
    avatar_url: string;
    email: string;
    created_at: string;
  } & ReturnType<typeof roleColumns>,
  UserRow
>((db, bind) =>
  db
    .insertInto('users')
    .values({
      username: bind('username'),
      username_key: bind('username_key'),
      avatar_url: bind('avatar_url'),
      email: bind('email'),
      created_at: bind('created_at'),
      role: bind('role'),
      is_admin: bind('is_admin'),
      team_id: null,
      team_joined_at: null,
    })
    .returning(RETURNED_USER_COLUMNS),
);

type IdentityRow = {
  user_id: number;
  provider: string;
  provider_user_id: string;
  created_at: string;
  name: string;
};

export async function insertIdentity(db: Executor, row: IdentityRow): Promise<void> {
  await insertIdentityQuery.run(db, row);
}

const insertIdentityQuery = prepared<IdentityRow, never>((db, bind) =>
  db.insertInto('identities').values({
    user_id: bind('user_id'),
    provider: bind('provider'),
    provider_user_id: bind('provider_user_id'),
    created_at: bind('created_at'),
    name: bind('name'),
  }),
);

export async function updateIdentityName(
  db: Executor,
  provider: string,
  providerUserId: string,
  name: string,
): Promise<void> {
  await db
    .updateTable('identities')
    .set({ name })
    .where('provider', '=', provider)
    .where('provider_user_id', '=', providerUserId)
    .where('name', '<>', name)
    .execute();
}

export async function listIdentities(
  db: Executor,
  userId: number,
): Promise<{ provider: string; provider_user_id: string; name: string; created_at: string }[]> {
  return db
    .selectFrom('identities')
    .select(['provider', 'provider_user_id', 'name', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

/** Removes one way in of a user; answers how many it removed. */
export async function deleteIdentity(db: Executor, userId: number, provider: string): Promise<number> {
  const result = await db
    .deleteFrom('identities')
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function updateProfile(
  db: Executor,
  id: number,
  patch: { avatar_url: string; email: string; role?: Role },
): Promise<void> {
  const { role, ...rest } = patch;
  await db
    .updateTable('users')
    .set({ ...rest, ...(role ? roleColumns(role) : {}) })
    .where('id', '=', id)
    .execute();
}

/** The user's solves with challenge names, oldest first: their completions (docs/product.md §3). */
export async function listUserCompletions(
  db: Executor,
  userId: number,
): Promise<{ challenge_id: number; name: string; created_at: string }[]> {
  return db
    .selectFrom('solves')
    .innerJoin('challenges', 'challenges.id', 'solves.challenge_id')
    .select(['solves.challenge_id', 'challenges.name', 'solves.created_at'])
    .where('solves.user_id', '=', userId)
    .orderBy('solves.created_at')
    .orderBy('solves.id')
    .execute();
}

export async function listUserRatedChallengeIds(db: Executor, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('ratings').select('challenge_id').where('user_id', '=', userId).execute();
  return rows.map((r) => r.challenge_id);
}

export async function findTeamNameAndLeader(
  db: Executor,
  teamId: number,
): Promise<{ name: string; leader_id: number } | null> {
  return (
    (await db
      .selectFrom('teams')
      .select(['name', 'leader_id'])
      .where('id', '=', teamId)
      .executeTakeFirst()) ?? null
  );
}

/** Users of one role (admins or not) with their team, by name. */
export async function listUsersByRole(db: Executor, admins: boolean): Promise<UserWithTeam[]> {
  return db
    .selectFrom('users')
    .leftJoin('teams', 'teams.id', 'users.team_id')
    .select([
      'users.id',
      'users.username',
      'users.avatar_url',
      'users.email',
      'users.is_admin',
      'users.role',
      'users.team_id',
      'teams.name as team_name',
      'teams.leader_id as team_leader_id',
      'users.division_id',
    ])
    .where('users.is_admin', '=', admins ? 1 : 0)
    .orderBy('users.username_key')
    .orderBy('users.id')
    .execute();
}

/** Every solve of the users of one role, with challenge names, oldest first. */
export async function listSolvesByRole(
  db: Executor,
  admins: boolean,
): Promise<{ user_id: number; challenge_id: number; name: string; created_at: string }[]> {
  return db
    .selectFrom('solves')
    .innerJoin('users', 'users.id', 'solves.user_id')
    .innerJoin('challenges', 'challenges.id', 'solves.challenge_id')
    .select(['solves.user_id', 'solves.challenge_id', 'challenges.name', 'solves.created_at'])
    .where('users.is_admin', '=', admins ? 1 : 0)
    .orderBy('solves.created_at')
    .orderBy('solves.id')
    .execute();
}

/** Every rating of the users of one role: which challenges each has rated. */
export async function listRatedByRole(
  db: Executor,
  admins: boolean,
): Promise<{ user_id: number; challenge_id: number }[]> {
  return db
    .selectFrom('ratings')
    .innerJoin('users', 'users.id', 'ratings.user_id')
    .select(['ratings.user_id', 'ratings.challenge_id'])
    .where('users.is_admin', '=', admins ? 1 : 0)
    .orderBy('ratings.created_at')
    .execute();
}

/** Whether any account has the admin role (a fresh site has none). */
export async function anyAdmin(db: Executor): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('is_admin', '=', 1).limit(1).executeTakeFirst();
  return row !== undefined;
}
