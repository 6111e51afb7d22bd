import { expect } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeZip } from '../src/lib/zip.js';
import { buildTestApp, type TestApp, type TestClient } from './build-test-app.js';
import { addChallenge, openSite } from './compete.js';
import type { TestDatabaseKind } from './databases.js';
import { makeTeam, teamInfo } from './team-fixtures.js';
import type { Hints } from './zod-arbitrary.js';

/**
 * A small, complete event for the security suites: two admins, a team with a leader, a member and
 * a pending join request, a second team, an active challenge with a stored file (solved by the
 * leader), an inactive one, and the site open. `hints` are its real ids and names, so generated
 * requests reach the deep paths (known ids, taken names, the right checksum) as well as the refusals.
 */
export interface World {
  t: TestApp;
  admin: TestClient;
  leader: TestClient;
  member: TestClient;
  asker: TestClient;
  other: TestClient;
  flags: { active: string; inactive: string };
  ids: { active: number; inactive: number; team: number; otherTeam: number; request: number };
  checksum: string;
  hints: Hints;
}

export const WORLD_FILE = 'fuzz-task.zip';

export async function buildWorld(
  kind: TestDatabaseKind,
  env: Record<string, string> = {},
  flags = { active: 'flag{fuzz-active}', inactive: 'flag{fuzz-inactive}' },
  options: Parameters<typeof buildTestApp>[2] = {},
): Promise<World> {
  const t = await buildTestApp(kind, env, options);
  const admin = await t.login('fuzz-admin', { admin: true });
  await t.login('fuzz-admin2', { admin: true });
  const leader = await t.login('fuzz-leader');
  const member = await t.login('fuzz-member');
  const asker = await t.login('fuzz-asker');
  const other = await t.login('fuzz-other');

  await makeTeam(leader, 'Fuzz Team', [member]);
  await makeTeam(other, 'Other Team');
  expect((await asker.post('/api/team/request', { team_name: 'Fuzz Team' })).status).toBe(200);
  const [request] = (await teamInfo(leader)).join_requests;

  mkdirSync(t.config.uploadDir, { recursive: true });
  const zip = makeZip([{ name: 'readme.txt', content: 'inside the zip' }]);
  writeFileSync(path.join(t.config.uploadDir, WORLD_FILE), zip);
  await t.ctx.database.db
    .insertInto('files')
    .values({ name: WORLD_FILE, size: zip.length, created_at: t.clock.now().toISOString() })
    .execute();
  const active = await addChallenge(t, { name: 'Fuzz Active', flag: flags.active, files: [WORLD_FILE] });
  const inactive = await addChallenge(t, { name: 'Fuzz Inactive', flag: flags.inactive, difficulty: 'Hard' });
  await t.ctx.database.db
    .updateTable('challenges')
    .set({ is_active: 0 })
    .where('id', '=', inactive.id)
    .execute();
  t.ctx.bus.publish('challenges');
  await openSite(t);
  expect(
    (await leader.post('/api/ctf/submit-flag', { challenge_id: active.id, flag: flags.active })).status,
  ).toBe(200);

  const teams = await t.ctx.database.db.selectFrom('teams').select(['id', 'name']).orderBy('id').execute();
  const team = teams.find((x) => x.name === 'Fuzz Team')!.id;
  const otherTeam = teams.find((x) => x.name === 'Other Team')!.id;
  const users = await t.ctx.database.db.selectFrom('users').select('id').execute();
  const ids = { active: active.id, inactive: inactive.id, team, otherTeam, request: Number(request._id) };
  const idHints = (...xs: number[]) => [
    ...xs,
    ...xs.map(String),
    999_999,
    2_147_483_647,
    2_147_483_648,
    1e15,
  ];
  const hints: Hints = {
    challenge_id: idHints(active.id, inactive.id),
    user_id: idHints(...users.map((u) => u.id)),
    team_id: idHints(team, otherTeam),
    request_id: idHints(ids.request),
    checksum: [request.checksum, `${request.checksum}x`, request.checksum.toUpperCase()],
    team_name: ['Fuzz Team', 'Other Team', 'fuzz team', 'A New Team', '<b>Bold</b> Team'],
    name: ['Fuzz Team', 'Other Team'],
    member_username: ['fuzz-member', 'fuzz-leader', 'fuzz-asker', 'FUZZ-MEMBER'],
    username: ['fuzz-admin2', 'fuzz-admin', 'fuzz-member', 'new-player'],
    flag: [flags.active, flags.inactive, ` ${flags.active} `, 'flag{wrong}'],
    filename: [WORLD_FILE, 'missing.zip', '../ctf.sqlite'],
    'files[]': [WORLD_FILE, 'missing.zip'],
    rating: [1, 3, 5, '4', 0, 6],
    activated: [true, false],
    description: ['<p>plain</p>', '<img src=x onerror=alert(1)><script>alert(2)</script>'],
  };
  return {
    t,
    admin,
    leader,
    member,
    asker,
    other,
    flags,
    ids,
    checksum: request.checksum,
    hints,
  };
}
