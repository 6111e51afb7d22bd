import type { ChallengeInput, Difficulty } from '@ctf/contract';
import { createChallenge } from '../src/modules/challenges/challenges.service.js';
import { setSiteActive } from '../src/modules/site/site.service.js';
import type { TestApp } from './build-test-app.js';

/** Test set-up for challenges, solves and teams, written straight through services or rows. */

let counter = 0;

export interface SeededChallenge {
  id: number;
  name: string;
  flag: string;
}

/** Creates a challenge through the admin service (active, points from difficulty). */
export async function addChallenge(
  t: TestApp,
  overrides: Partial<ChallengeInput> = {},
): Promise<SeededChallenge> {
  counter += 1;
  const input: ChallengeInput = {
    name: `Challenge ${counter}`,
    description: '<p>Find the flag.</p>',
    category: 'General',
    difficulty: 'Easy' as Difficulty,
    written_by: 'Tester',
    flag: `flag{secret-${counter}}`,
    files: [],
    ...overrides,
  };
  const { id } = await createChallenge(t.ctx, input);
  return { id, name: input.name.trim(), flag: (input.flag ?? input.flags?.[0]?.content ?? '').trim() };
}

/** Makes a user an owner of a challenge (as an admin's owner_ids would). */
export async function ownChallenge(t: TestApp, challengeId: number, userId: number): Promise<void> {
  await t.ctx.database.db
    .insertInto('challenge_owners')
    .values({ challenge_id: challengeId, user_id: userId })
    .execute();
}

export async function openSite(t: TestApp, open = true): Promise<void> {
  await setSiteActive(t.ctx, open);
}

/** Registers a stored file by name (the files table only; no bytes on disk). */
export async function addFileRow(t: TestApp, name: string): Promise<number> {
  const row = await t.ctx.database.db
    .insertInto('files')
    .values({ name, size: 1, created_at: t.clock.now().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  t.ctx.bus.publish('files');
  return row.id;
}

/** A team with these members (ids of users), the first one leading. */
export async function makeTeam(t: TestApp, name: string, memberIds: number[]): Promise<number> {
  const db = t.ctx.database.db;
  const now = t.clock.now().toISOString();
  const row = await db
    .insertInto('teams')
    .values({
      name,
      name_key: name.toLowerCase(),
      leader_id: memberIds[0]!,
      member_count: memberIds.length,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (memberIds.length > 0) {
    await db
      .updateTable('users')
      .set({ team_id: row.id, team_joined_at: now })
      .where('id', 'in', memberIds)
      .execute();
  }
  t.ctx.bus.publish('teams');
  t.ctx.bus.publish('users');
  return row.id;
}

/** Moves a user to a team (or none), as joining or leaving would. */
export async function setTeam(t: TestApp, userId: number, teamId: number | null): Promise<void> {
  await t.ctx.database.db
    .updateTable('users')
    .set({ team_id: teamId, team_joined_at: teamId === null ? null : t.clock.now().toISOString() })
    .where('id', '=', userId)
    .execute();
  t.ctx.bus.publish('users');
  t.ctx.bus.publish('teams');
}

/** Removes a team as the admin would: members become teamless, the team's solves stay recorded. */
export async function removeTeamRow(t: TestApp, teamId: number): Promise<void> {
  const db = t.ctx.database.db;
  await db
    .updateTable('users')
    .set({ team_id: null, team_joined_at: null })
    .where('team_id', '=', teamId)
    .execute();
  await db.deleteFrom('teams').where('id', '=', teamId).execute();
  t.ctx.bus.publish('teams');
  t.ctx.bus.publish('users');
}
