import { roleColumns } from '../../db/user-role.js';
import { DIFFICULTIES, MESSAGES, pointsFor, rankCompetitors, type ScoringInput } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge, makeTeam, openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { startedEvent, type StartedEvent } from '../../../test/fixtures.js';
import { seededRandom } from '../../../test/seeded-random.js';

const T0 = Date.parse('2026-01-09T01:00:00Z');

/** A random event written as rows: users (a few admins), teams, solves credited to any team or none. */
async function generateEvent(t: TestApp, seed: number): Promise<void> {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const db = t.ctx.database.db;
  const now = t.clock.now().toISOString();
  const challenges = [];
  for (let i = 0; i < 6; i++)
    challenges.push(await addChallenge(t, { name: `m${seed}-c${i}`, difficulty: pick(DIFFICULTIES) }));
  const userIds: number[] = [];
  for (let i = 0; i < 20; i++) {
    const username = `u${seed}-${i}`;
    const row = await db
      .insertInto('users')
      .values({
        username,
        username_key: username,
        avatar_url: '',
        email: '',
        ...roleColumns(rnd() < 0.1 ? 'admin' : 'player'),
        team_id: null,
        team_joined_at: null,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    userIds.push(row.id);
  }
  const teamIds: number[] = [];
  for (let i = 0; i < 5; i++) {
    const name = `t${seed}-${i}`;
    const row = await db
      .insertInto('teams')
      .values({ name, name_key: name, leader_id: pick(userIds), member_count: 1, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    teamIds.push(row.id);
  }
  for (const id of userIds) {
    await db
      .updateTable('users')
      .set({ team_id: rnd() < 0.4 ? null : pick(teamIds) })
      .where('id', '=', id)
      .execute();
  }
  const solved = new Set<string>();
  for (let i = 0; i < 80; i++) {
    const userId = pick(userIds);
    const challenge = pick(challenges);
    if (solved.has(`${userId}:${challenge.id}`)) continue;
    solved.add(`${userId}:${challenge.id}`);
    await db
      .insertInto('solves')
      .values({
        user_id: userId,
        challenge_id: challenge.id,
        team_id: rnd() < 0.35 ? null : pick(teamIds),
        created_at: new Date(T0 + Math.floor(rnd() * 12) * 60_000).toISOString(),
      })
      .execute();
  }
  for (const topic of ['users', 'teams', 'solves'] as const) t.ctx.bus.publish(topic);
}

/** The model's view of the database, leaving out the solves of these users and of these teams. */
async function boardWithout(
  t: TestApp,
  hiddenUsers: ReadonlySet<number>,
  hiddenTeams: ReadonlySet<number>,
): Promise<{ board: { name: string; points: number }[]; counts: Map<string, number> }> {
  const db = t.ctx.database.db;
  const [users, teams, solves, challenges] = await Promise.all([
    db.selectFrom('users').select(['id', 'username', 'is_admin', 'team_id']).execute(),
    db.selectFrom('teams').select(['id', 'name']).execute(),
    db.selectFrom('solves').select(['user_id', 'challenge_id', 'team_id', 'created_at']).execute(),
    db.selectFrom('challenges').select(['id', 'name', 'difficulty']).execute(),
  ]);
  const kept = solves.filter(
    (s) => !hiddenUsers.has(s.user_id) && (s.team_id === null || !hiddenTeams.has(s.team_id)),
  );
  const input: ScoringInput = {
    users: users
      .filter((u) => !hiddenUsers.has(u.id))
      .map((u) => ({ id: u.id, name: u.username, isAdmin: u.is_admin === 1, teamId: u.team_id })),
    // A hidden team still exists (its members are on a team, not teamless competitors): only
    // what it scored is gone, so it drops off the board as a team with no points does.
    teams,
    solves: kept.map((s) => ({
      userId: s.user_id,
      challengeId: s.challenge_id,
      teamId: s.team_id,
      time: s.created_at,
    })),
    points: new Map(challenges.map((c) => [c.id, pointsFor(c.difficulty as (typeof DIFFICULTIES)[number])])),
  };
  const admins = new Set(users.filter((u) => u.is_admin === 1).map((u) => u.id));
  const counts = new Map(challenges.map((c) => [c.name, 0]));
  const nameOf = new Map(challenges.map((c) => [c.id, c.name]));
  for (const s of kept) {
    if (admins.has(s.user_id)) continue;
    const name = nameOf.get(s.challenge_id)!;
    counts.set(name, counts.get(name)! + 1);
  }
  return { board: rankCompetitors(input).map(({ name, points }) => ({ name, points })), counts };
}

for (const kind of testDatabaseKinds()) {
  describe(`hide and ban on ${kind}`, () => {
    let t: StartedEvent<never, 'boss'>;
    let admin: TestClient;

    beforeEach(async () => {
      // The site opens where a test needs it.
      t = await startedEvent({ kind, open: false, admins: ['boss'] });
      admin = t.admin;
    });
    afterEach(async () => {
      await t.close();
    });

    const moderate = (body: Record<string, unknown>) => admin.post('/api/admin/moderate', body);

    it('with hidden competitors, the board and the solve counts equal those built without them', async () => {
      await openSite(t);
      const db = t.ctx.database.db;
      for (const seed of [3, 8]) {
        await generateEvent(t, seed);
        const rnd = seededRandom(seed * 7);
        const users = await db
          .selectFrom('users')
          .select(['id', 'username'])
          .where('is_admin', '=', 0)
          .where('username', 'like', `u${seed}-%`)
          .execute();
        const teams = await db
          .selectFrom('teams')
          .select(['id', 'name'])
          .where('name', 'like', `t${seed}-%`)
          .execute();
        const hiddenUsers = new Set<number>();
        const hiddenTeams = new Set<number>();
        for (const u of users) if (rnd() < 0.25) hiddenUsers.add(u.id);
        for (const x of teams) if (rnd() < 0.3) hiddenTeams.add(x.id);
        // Hidden before the first read and after: the cached board must follow either way.
        await t.visitor().get('/api/info/leaderboard');
        for (const u of users.filter((x) => hiddenUsers.has(x.id)))
          expect(
            (await moderate({ target: 'user', name: u.username, action: 'hide', reason: 'test' })).status,
          ).toBe(200);
        for (const x of teams.filter((y) => hiddenTeams.has(y.id)))
          expect(
            (await moderate({ target: 'team', name: x.name, action: 'hide', reason: 'test' })).status,
          ).toBe(200);

        const all = await db.selectFrom('users').select(['id']).where('hidden', '=', 1).execute();
        const allTeams = await db.selectFrom('teams').select(['id']).where('hidden', '=', 1).execute();
        const expected = await boardWithout(
          t,
          new Set(all.map((u) => u.id)),
          new Set(allTeams.map((x) => x.id)),
        );
        expect((await t.visitor().get('/api/info/leaderboard')).body).toEqual(expected.board);
        const list = (await t.visitor().get('/api/ctf/challenges')).body as {
          name: string;
          user_completions: number;
        }[];
        expect(new Map(list.map((c) => [c.name, c.user_completions]))).toEqual(expected.counts);
      }
      // Shown again: everything counts as before.
      const hidden = await db.selectFrom('users').select(['username']).where('hidden', '=', 1).execute();
      for (const u of hidden) await moderate({ target: 'user', name: u.username, action: 'unhide' });
      const hiddenTeams = await db.selectFrom('teams').select(['name']).where('hidden', '=', 1).execute();
      for (const x of hiddenTeams) await moderate({ target: 'team', name: x.name, action: 'unhide' });
      expect((await t.visitor().get('/api/info/leaderboard')).body).toEqual(
        (await boardWithout(t, new Set(), new Set())).board,
      );
    });

    it('a hidden team leaves the board and its members solving for it count nowhere; the admin lists say so', async () => {
      const alice = await t.login('alice');
      const bob = await t.login('bob');
      const teamId = await makeTeam(t, 'Red', [alice.user!.id]);
      const c = await addChallenge(t, { name: 'Hidden One' });
      await openSite(t);
      await alice.post('/api/ctf/submit-flag', { flag: c.flag, challenge_id: c.id });
      await bob.post('/api/ctf/submit-flag', { flag: c.flag, challenge_id: c.id });
      expect(
        (await t.visitor().get('/api/info/leaderboard')).body.map((e: { name: string }) => e.name),
      ).toEqual(['Red', 'bob']);
      const res = await moderate({ target: 'team', name: 'red', action: 'hide', reason: 'flag sharing' });
      expect(res.body).toEqual({
        acknowledge: true,
        message: "Team 'Red' is hidden from every public view.",
      });
      expect((await t.visitor().get('/api/info/leaderboard')).body).toEqual([{ name: 'bob', points: 100 }]);
      const listed = (await t.visitor().get('/api/ctf/challenges')).body as { user_completions: number }[];
      expect(listed[0]!.user_completions).toBe(1);
      const teams = (await admin.get('/api/admin/get_teams')).body;
      expect(teams.find((x: { _id: string }) => x._id === String(teamId))).toMatchObject({
        hidden: true,
        banned: false,
        moderation_reason: 'flag sharing',
      });
      // Hidden is not removed: the competitor still plays and sees its own figures.
      expect((await alice.get('/api/team/info')).body.name).toBe('Red');
    });

    it('a banned user cannot log in, is told why, and its session ends at the next request; unban restores', async () => {
      const alice = await t.login('alice');
      expect((await alice.get('/api/authenticated')).status).toBe(200);
      const res = await moderate({ target: 'user', name: 'Alice', action: 'ban', reason: 'abuse' });
      expect(res.status).toBe(200);
      expect((await alice.get('/api/authenticated')).status).toBe(401);
      const users = (await admin.get('/api/admin/get_users')).body;
      expect(users.find((u: { username: string }) => u.username === 'alice')).toMatchObject({
        banned: true,
        hidden: false,
        moderation_reason: 'abuse',
      });
      const login = t.login('alice');
      await expect(login).rejects.toMatchObject({ statusCode: 403, code: 'banned' });
      await expect(login).rejects.toThrow(
        'This account is banned from the competition by the organisers. Reason: abuse. Contact them if you think this is a mistake.',
      );

      await moderate({ target: 'user', name: 'alice', action: 'unban' });
      const back = await t.login('alice');
      expect((await back.get('/api/authenticated')).status).toBe(200);
    });

    it('a banned team bans its members while they are on it', async () => {
      const alice = await t.login('alice');
      await makeTeam(t, 'Blue', [alice.user!.id]);
      const res = await moderate({ target: 'team', name: 'Blue', action: 'ban', reason: 'shared flags' });
      expect(res.body).toEqual({ acknowledge: true, message: "Team 'Blue' is banned: it cannot log in." });
      expect((await alice.get('/api/authenticated')).status).toBe(401);
      await expect(t.login('alice')).rejects.toThrow(/Reason: shared flags\. Contact them/);
      // A reason that ends a sentence already gets no second full stop.
      await moderate({ target: 'team', name: 'Blue', action: 'ban', reason: 'Shared flags!' });
      await expect(t.login('alice')).rejects.toThrow(/Reason: Shared flags! Contact them/);
    });

    it('records each moderation in the audit log', async () => {
      await t.login('alice');
      await moderate({ target: 'user', name: 'alice', action: 'hide', reason: 'looks odd' });
      await moderate({ target: 'user', name: 'alice', action: 'unhide' });
      const rows = (await admin.get('/api/admin/audit')).body.rows;
      expect(rows.slice(0, 2).map((r: { action: string }) => r.action)).toEqual([
        'moderation.unhide',
        'moderation.hide',
      ]);
      expect(rows[1]).toMatchObject({ admin: 'boss', target: expect.stringContaining("user 'alice'") });
      expect(rows[1].details).toMatchObject({ reason: 'looks odd' });
    });

    it('refuses bad input naming the field, unknown names, admins and the wrong roles', async () => {
      await t.login('alice');
      const noReason = await moderate({ target: 'user', name: 'alice', action: 'ban' });
      expect(noReason.status).toBe(400);
      expect(noReason.body.message).toContain('reason');
      const badTarget = await moderate({ target: 'group', name: 'alice', action: 'hide', reason: 'x' });
      expect(badTarget.body.message).toContain('target');
      const badAction = await moderate({ target: 'user', name: 'alice', action: 'delete', reason: 'x' });
      expect(badAction.body.message).toContain('action');
      expect((await moderate({ target: 'user', name: 'ghost', action: 'hide', reason: 'x' })).status).toBe(
        404,
      );
      await t.login('deputy', { admin: true });
      expect((await moderate({ target: 'user', name: 'deputy', action: 'ban', reason: 'x' })).status).toBe(
        400,
      );
      const body = { target: 'user', name: 'alice', action: 'hide', reason: 'x' };
      expect((await t.visitor().post('/api/admin/moderate', body)).status).toBe(401);
      expect((await (await t.login('carol')).post('/api/admin/moderate', body)).status).toBe(403);
      expect(MESSAGES.unauthorized).toBeTruthy();
    });
  });
}
