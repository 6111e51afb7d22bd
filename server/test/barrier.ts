import { expect } from 'vitest';
import { MAX_TEAM_SIZE } from '@ctf/contract';
import type { TestApp } from './build-test-app.js';

/**
 * Runs every task at the same moment: each waits at one gate, and the gate opens once all of
 * them are waiting, so no request gets a head start from being created first.
 */
export async function releasedTogether<T>(tasks: readonly (() => Promise<T>)[]): Promise<T[]> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let waiting = 0;
  let allWaiting!: () => void;
  const ready = new Promise<void>((resolve) => (allWaiting = resolve));
  const running = tasks.map(async (task) => {
    waiting += 1;
    if (waiting === tasks.length) allWaiting();
    await gate;
    return task();
  });
  await ready;
  open();
  return Promise.all(running);
}

/**
 * The team invariants of docs/product.md §14, read straight from the rows: every team has 1..4 members,
 * its member_count is the number of users pointing at it, its leader is one of them, and no user
 * points at a team that does not exist.
 */
export async function expectTeamInvariants(t: TestApp): Promise<void> {
  const db = t.ctx.database.db;
  const [teams, users] = await Promise.all([
    db.selectFrom('teams').select(['id', 'name', 'leader_id', 'member_count']).execute(),
    db.selectFrom('users').select(['id', 'team_id']).execute(),
  ]);
  const ids = new Set(teams.map((x) => x.id));
  for (const u of users)
    if (u.team_id !== null) expect(ids.has(u.team_id), `user ${u.id} points at team ${u.team_id}`).toBe(true);
  for (const team of teams) {
    const members = users.filter((u) => u.team_id === team.id).map((u) => u.id);
    expect(team.member_count, `${team.name}: member_count`).toBe(members.length);
    expect(members.length, `${team.name}: size`).toBeGreaterThanOrEqual(1);
    expect(members.length, `${team.name}: size`).toBeLessThanOrEqual(MAX_TEAM_SIZE);
    expect(members, `${team.name}: its leader is a member`).toContain(team.leader_id);
  }
}
