import { teamsApi } from '@ctf/contract';
import { expect } from 'vitest';
import type { TestApp, TestClient } from './build-test-app.js';

/** Factories for the team tests (server/src/modules/teams): teams, users, challenges and solves. */

export const TEAM_TEXT = teamsApi.TEAM_MESSAGES;

/** GET /api/team/info as `c`, which must answer 200. */
export async function teamInfo(c: TestClient) {
  const res = await c.get('/api/team/info');
  expect(res.status).toBe(200);
  return res.body;
}

/** Creates a team led by `leader` with `members` accepted in order, through the real calls. */
export async function makeTeam(leader: TestClient, name: string, members: TestClient[] = []) {
  expect((await leader.post('/api/team/create', { team_name: name })).status).toBe(200);
  for (const m of members) {
    expect((await m.post('/api/team/request', { team_name: name })).status).toBe(200);
    const info = await teamInfo(leader);
    const req = info.join_requests.find((r: any) => r.sender_name === m.user!.username);
    const res = await leader.post('/api/team/add-member', { request_id: req._id, checksum: req.checksum });
    expect(res.status).toBe(200);
  }
}

/** Logs users in one after another, so their ids (the tie-break of join order) follow the list. */
export async function logins(t: TestApp, names: string[]): Promise<TestClient[]> {
  const clients: TestClient[] = [];
  for (const n of names) clients.push(await t.login(n));
  return clients;
}

export async function seedChallenge(t: TestApp, name: string, points: number): Promise<number> {
  const now = t.clock.now().toISOString();
  const row = await t.ctx.database.db
    .insertInto('challenges')
    .values({
      name,
      description: '',
      category: 'General',
      difficulty: 'Easy',
      written_by: 'x',
      points,
      is_active: 1,
      max_attempts: null,
      release_at: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.ctx.database.db
    .insertInto('challenge_flags')
    .values({ challenge_id: row.id, position: 0, type: 'static', content: 'f' })
    .execute();
  return row.id;
}

export async function seedSolve(
  t: TestApp,
  userId: number,
  challengeId: number,
  teamId: number | null,
  at: string,
): Promise<void> {
  await t.ctx.database.db
    .insertInto('solves')
    .values({ user_id: userId, challenge_id: challengeId, team_id: teamId, created_at: at })
    .execute();
  // As a correct flag does (submissions.service.ts): kept answers that show solves hear of it.
  t.ctx.bus.publish('solves-added');
}
