import { roleColumns } from '../../db/user-role.js';
import { DIFFICULTIES, pointsFor, rankCompetitors, type ScoringInput } from '@ctf/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { addChallenge } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { getScoreView } from '../scoreboard/scoreboard.service.js';
import { scoringFromColumns } from '../scoreboard/scoring-columns.js';
import { getLeaderboard } from './leaderboard.service.js';
import { seededRandom } from '../../../test/seeded-random.js';

const T0 = Date.parse('2025-10-15T01:00:00Z');

/**
 * Fills the database with a random event (teams removed mid-way, admins on teams, solves credited
 * to any team, many equal scores and instants) and answers the model's view of the same rows.
 */
async function generateEvent(t: TestApp, seed: number): Promise<ScoringInput> {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const db = t.ctx.database.db;
  const now = t.clock.now().toISOString();

  const challenges = [];
  for (let i = 0; i < 8; i++) {
    // Half the challenges dynamic, with small decays so that values move within a few solves.
    const initial = 100 + Math.floor(rnd() * 900);
    const scoring =
      rnd() < 0.5
        ? {
            type: 'dynamic' as const,
            function: rnd() < 0.5 ? ('linear' as const) : ('logarithmic' as const),
            initial,
            minimum: 1 + Math.floor(rnd() * initial),
            decay: Math.floor(rnd() * 12),
          }
        : { type: 'static' as const };
    challenges.push(
      await addChallenge(t, { name: `s${seed}-c${i}`, difficulty: pick(DIFFICULTIES), scoring }),
    );
  }
  const letters = ['a', 'B', 'b', 'Z', 'é', 'ｚ', '_'];
  const userIds: number[] = [];
  for (let i = 0; i < 30; i++) {
    const username = `${pick(letters)}${pick(letters)}-${seed}-${i}`;
    const row = await db
      .insertInto('users')
      .values({
        username,
        username_key: username.toLowerCase(),
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
  for (let i = 0; i < 8; i++) {
    // Some team names equal a user's name pattern, so a team and a user can tie on everything.
    const name = i === 0 ? `aa-${seed}-0` : `${pick(letters)}-team-${seed}-${i}`;
    const row = await db
      .insertInto('teams')
      .values({
        name,
        name_key: `${name.toLowerCase()}-${i}`,
        leader_id: pick(userIds),
        member_count: 1,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    teamIds.push(row.id);
  }
  // Solves: each (user, challenge) at most once, credited to no team, the user's team or any team.
  const solved = new Set<string>();
  for (let i = 0; i < 150; i++) {
    const userId = pick(userIds);
    const challenge = pick(challenges);
    const key = `${userId}:${challenge.id}`;
    if (solved.has(key)) continue;
    solved.add(key);
    await db
      .insertInto('solves')
      .values({
        user_id: userId,
        challenge_id: challenge.id,
        team_id: rnd() < 0.35 ? null : pick(teamIds),
        // Few distinct instants, so ties on time are common.
        created_at: new Date(T0 + Math.floor(rnd() * 12) * 60_000).toISOString(),
      })
      .execute();
  }
  // Hints with costs, unlocked by users for no team, their team or any team (once per competitor).
  const hintIds: number[] = [];
  for (const [i, c] of challenges.entries()) {
    const row = await db
      .insertInto('hints')
      .values({ challenge_id: c.id, position: 0, title: `h${i}`, content: '', cost: pick([0, 10, 25, 60]) })
      .returning('id')
      .executeTakeFirstOrThrow();
    hintIds.push(row.id);
  }
  const unlocked = new Set<string>();
  for (let i = 0; i < 40; i++) {
    const userId = pick(userIds);
    const teamId = rnd() < 0.4 ? null : pick(teamIds);
    const hintId = pick(hintIds);
    const competitor = teamId === null ? `u${userId}` : `t${teamId}`;
    if (unlocked.has(`${hintId}:${competitor}`)) continue;
    unlocked.add(`${hintId}:${competitor}`);
    await db
      .insertInto('hint_unlocks')
      .values({ hint_id: hintId, user_id: userId, team_id: teamId, competitor, created_at: now })
      .execute();
  }
  // Current memberships, then remove two teams (their members become teamless; solves stay).
  for (const id of userIds) {
    const teamId = rnd() < 0.4 ? null : pick(teamIds);
    await db.updateTable('users').set({ team_id: teamId }).where('id', '=', id).execute();
  }
  for (const removed of teamIds.slice(-2)) {
    await db.updateTable('users').set({ team_id: null }).where('team_id', '=', removed).execute();
    await db.updateTable('teams').set({ leader_id: userIds[0]! }).where('id', '=', removed).execute();
    await db.deleteFrom('teams').where('id', '=', removed).execute();
  }
  // One user keeps a team id that names no team (a dangling reference counts as none).
  await db
    .updateTable('users')
    .set({ team_id: teamIds.at(-1)! })
    .where('id', '=', userIds[1]!)
    .execute();
  // And one removed user: their solves go with them.
  await db
    .updateTable('teams')
    .set({ leader_id: userIds[0]! })
    .where('leader_id', '=', userIds[2]!)
    .execute();
  await db.deleteFrom('users').where('id', '=', userIds[2]!).execute();
  for (const topic of ['users', 'teams', 'solves'] as const) t.ctx.bus.publish(topic);
  return readScoringInput(t);
}

/** The model's view of what the database holds now. */
async function readScoringInput(t: TestApp): Promise<ScoringInput> {
  const db = t.ctx.database.db;
  const [users, teams, solves, points, unlocks] = await Promise.all([
    db.selectFrom('users').select(['id', 'username', 'is_admin', 'team_id']).execute(),
    db.selectFrom('teams').select(['id', 'name']).execute(),
    db.selectFrom('solves').select(['user_id', 'challenge_id', 'team_id', 'created_at']).execute(),
    db
      .selectFrom('challenges')
      .select([
        'id',
        'difficulty',
        'scoring_type',
        'scoring_function',
        'scoring_initial',
        'scoring_minimum',
        'scoring_decay',
      ])
      .execute(),
    db
      .selectFrom('hint_unlocks')
      .innerJoin('hints', 'hints.id', 'hint_unlocks.hint_id')
      .select(['hint_unlocks.user_id', 'hint_unlocks.team_id', 'hints.cost', 'hint_unlocks.created_at'])
      .execute(),
  ]);
  return {
    users: users.map((u) => ({ id: u.id, name: u.username, isAdmin: u.is_admin === 1, teamId: u.team_id })),
    teams,
    solves: solves.map((s) => ({
      userId: s.user_id,
      challengeId: s.challenge_id,
      teamId: s.team_id,
      time: s.created_at,
    })),
    points: new Map(points.map((c) => [c.id, pointsFor(c.difficulty as (typeof DIFFICULTIES)[number])])),
    scorings: new Map(points.map((c) => [c.id, scoringFromColumns(c)])),
    unlocks: unlocks.map((u) => ({ userId: u.user_id, teamId: u.team_id, cost: u.cost, time: u.created_at })),
  };
}

for (const kind of testDatabaseKinds()) {
  describe(`leaderboard (score board) against the scoring model on ${kind}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp(kind);
    });
    afterAll(async () => {
      await t.close();
    });

    it('keeps ranking exactly as the model does while solves arrive one batch at a time', async () => {
      await generateEvent(t, 11);
      const rnd = seededRandom(99);
      const unlockRnd = seededRandom(7);
      const db = t.ctx.database.db;
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
      const board = async () => (await getLeaderboard(t.ctx)).entries;
      const model = async () =>
        rankCompetitors(await readScoringInput(t)).map(({ name, points }) => ({ name, points }));
      expect(await board()).toEqual(await model());
      // Round 5 leaves ids gapStart+1 .. gapStart+19 unused; round 6 fills some of them.
      let gapStart = 0;
      for (let round = 0; round < 12; round++) {
        const input = await readScoringInput(t);
        const users = input.users.map((u) => u.id);
        const teams = input.teams.map((x) => x.id);
        const challenges = [...input.points.keys()];
        const taken = new Set(input.solves.map((x) => `${x.userId}:${x.challengeId}`));
        const maxId = Number(
          (
            await db
              .selectFrom('solves')
              .select((eb) => eb.fn.max('id').as('m'))
              .executeTakeFirst()
          )?.m ?? 0,
        );
        if (round === 5) gapStart = maxId;
        for (let i = 0; i < 1 + Math.floor(rnd() * 4); i++) {
          const userId = pick(users);
          const challengeId = pick(challenges);
          if (taken.has(`${userId}:${challengeId}`)) continue;
          taken.add(`${userId}:${challengeId}`);
          await db
            .insertInto('solves')
            .values({
              // Round 5 skips ids that round 6 then fills: a commit that lands after a
              // higher id was seen, as PostgreSQL's concurrent transactions can.
              ...(round === 5 ? { id: maxId + 20 + i } : round === 6 ? { id: gapStart + 5 + i } : {}),
              user_id: userId,
              challenge_id: challengeId,
              // Sometimes earlier than solves already counted: the first solve of a team moves.
              team_id: rnd() < 0.3 ? null : pick(teams),
              created_at: new Date(T0 + Math.floor(rnd() * 14) * 60_000).toISOString(),
            })
            .execute();
        }
        if (round === 6 && t.ctx.database.dialect === 'postgres') {
          // Explicit ids do not move PostgreSQL's sequence; later inserts must not collide.
          await sql`select setval(pg_get_serial_sequence('solves', 'id'), (select max(id) from solves))`.execute(
            db,
          );
        }
        if (round === 8) {
          // A deletion announced only as an addition must still be noticed.
          const victim = await db
            .selectFrom('solves')
            .innerJoin('users', 'users.id', 'solves.user_id')
            .select('solves.id')
            .where('solves.team_id', 'is', null)
            .where('users.team_id', 'is', null)
            .where('users.is_admin', '=', 0)
            .executeTakeFirstOrThrow();
          await db.deleteFrom('solves').where('id', '=', victim.id).execute();
        }
        if (round % 3 === 1) {
          // An unlock is applied like a solve: only its competitor's row is read again. Its own
          // generator, so the solves' sequence (and round 5/6's explicit ids) stays as it was.
          const hints = await db.selectFrom('hints').select('id').execute();
          const pickU = <T>(xs: readonly T[]): T => xs[Math.floor(unlockRnd() * xs.length)]!;
          const userId = pickU(users);
          const teamId = unlockRnd() < 0.5 ? null : pickU(teams);
          await db
            .insertInto('hint_unlocks')
            .values({
              hint_id: pickU(hints).id,
              user_id: userId,
              team_id: teamId,
              competitor: teamId === null ? `u${userId}` : `t${teamId}`,
              created_at: new Date(T0).toISOString(),
            })
            .onConflict((oc) => oc.columns(['hint_id', 'competitor']).doNothing())
            .execute();
          t.ctx.bus.publish('unlocks-added');
        }
        t.ctx.bus.publish('solves-added');
        expect(await board(), `round ${round}`).toEqual(await model());
      }
    });

    for (const seed of [1, 2, 3, 4, 5]) {
      it(`ranks generated event ${seed} exactly as the model does`, async () => {
        // Each event adds to the same database, so later seeds also check a busier one.
        const model = rankCompetitors(await generateEvent(t, seed));
        expect(model.length).toBeGreaterThan(3);
        const rows = (await getScoreView(t.ctx, { live: true })).board.ranked;
        expect(
          rows.map((r) => ({
            kind: r.kind,
            id: r.id,
            name: r.name,
            points: r.points,
            lastSolveAt: r.lastSolveAt,
          })),
        ).toEqual(model);
        expect((await getLeaderboard(t.ctx)).entries).toEqual(
          model.map(({ name, points }) => ({ name, points })),
        );
      });
    }
  });
}
