import { rankCompetitors, type ChallengeScoring, type ScoringInput } from '@ctf/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ScoreBoard,
  type BoardAward,
  type BoardSnapshot,
  type BoardSolve,
  type BoardUnlock,
} from './score-board.js';
import {
  ctftimeFeed,
  graphSeries,
  leaderboardEntries,
  scoreboardRows,
  solveRows,
} from './scoreboard.views.js';

/**
 * Property tests of the one scoring function (issue 16): after random solves, unlocks, awards, removals and
 * changes of scoring parameters, the board (built at once, or kept up to date batch by batch), the
 * graph's last points, the CTFtime feed and the exports agree with each other and with the
 * from-scratch reference model of contract/src/rules/scoring.ts, live and with a freeze cutoff.
 */

const T0 = Date.parse('2025-10-15T01:00:00Z');
const at = (minute: number) => new Date(T0 + minute * 60_000).toISOString();

const scoringArb: fc.Arbitrary<ChallengeScoring> = fc.oneof(
  fc.constant<ChallengeScoring>({ type: 'static' }),
  fc
    .record({
      fn: fc.constantFrom('linear' as const, 'logarithmic' as const),
      initial: fc.integer({ min: 1, max: 1000 }),
      ratio: fc.double({ min: 0, max: 1, noNaN: true }),
      decay: fc.integer({ min: 0, max: 12 }),
    })
    .map(({ fn, initial, ratio, decay }) => ({
      type: 'dynamic' as const,
      function: fn,
      initial,
      minimum: Math.max(1, Math.floor(initial * ratio)),
      decay,
    })),
);

const eventArb = fc
  .record({
    challenges: fc.array(
      fc.record({ points: fc.constantFrom(50, 100, 200, 300, 400), scoring: scoringArb }),
      {
        minLength: 1,
        maxLength: 6,
      },
    ),
    users: fc.array(
      fc.record({
        admin: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
        team: fc.integer({ min: -1, max: 3 }),
      }),
      { minLength: 1, maxLength: 12 },
    ),
    teamCount: fc.integer({ min: 0, max: 4 }),
    solves: fc.array(
      fc.record({
        user: fc.nat(),
        challenge: fc.nat(),
        team: fc.integer({ min: -1, max: 4 }),
        minute: fc.integer({ min: 0, max: 30 }),
      }),
      { maxLength: 60 },
    ),
    unlocks: fc.array(
      fc.record({
        user: fc.nat(),
        team: fc.integer({ min: -1, max: 4 }),
        cost: fc.integer({ min: 0, max: 150 }),
        minute: fc.integer({ min: 0, max: 30 }),
      }),
      { maxLength: 10 },
    ),
    awards: fc.array(
      fc.record({
        // -1: an award to a team (no user).
        user: fc.integer({ min: -1, max: 20 }),
        team: fc.integer({ min: -1, max: 4 }),
        points: fc.integer({ min: -300, max: 300 }).filter((n) => n !== 0),
        minute: fc.integer({ min: 0, max: 31 }),
      }),
      { maxLength: 8 },
    ),
    removed: fc.array(fc.nat(), { maxLength: 3 }),
    rescored: fc.array(fc.record({ challenge: fc.nat(), scoring: scoringArb }), { maxLength: 2 }),
    cut: fc.integer({ min: 0, max: 31 }),
    batches: fc.integer({ min: 1, max: 5 }),
  })
  .map((e) => {
    const challenges = e.challenges.map((c, i) => ({
      id: i + 1,
      name: `c${i + 1}`,
      points: c.points,
      scoring: c.scoring,
      releaseAt: null,
    }));
    const teams = Array.from({ length: e.teamCount }, (_, i) => ({ id: i + 1, name: `team-${i + 1}` }));
    const users = e.users.map((u, i) => ({
      id: i + 1,
      name: `user-${i + 1}`,
      excluded: u.admin,
      // A team id may name a removed team (there are only teamCount of them).
      teamId: u.team < 0 ? null : u.team + 1,
    }));
    const seen = new Set<string>();
    const solves: BoardSolve[] = [];
    for (const s of e.solves) {
      const user = users[s.user % users.length]!;
      const challenge = challenges[s.challenge % challenges.length]!;
      if (seen.has(`${user.id}:${challenge.id}`)) continue;
      seen.add(`${user.id}:${challenge.id}`);
      solves.push({
        id: solves.length + 1,
        user_id: user.id,
        challenge_id: challenge.id,
        team_id: s.team < 0 ? null : s.team + 1,
        created_at: at(s.minute),
      });
    }
    const unlocks: BoardUnlock[] = e.unlocks.map((u, i) => ({
      id: i + 1,
      user_id: users[u.user % users.length]!.id,
      team_id: u.team < 0 ? null : u.team + 1,
      cost: u.cost,
      created_at: at(u.minute),
    }));
    const awards: (BoardAward & { reason: string })[] = e.awards
      .map((a, i) => ({
        id: i + 1,
        user_id: a.user < 0 ? null : users[a.user % users.length]!.id,
        team_id: a.team < 0 ? null : a.team + 1,
        points: a.points,
        created_at: at(a.minute),
        reason: `award ${i + 1}`,
      }))
      .filter((a) => a.user_id !== null || a.team_id !== null);
    return {
      challenges,
      teams,
      users,
      solves,
      unlocks,
      awards,
      removed: e.removed,
      rescored: e.rescored,
      cut: e.cut,
      batches: e.batches,
    };
  });

function reference(snapshot: BoardSnapshot, cutoff: string | null): ScoringInput {
  return {
    users: snapshot.users.map((u) => ({ id: u.id, name: u.name, isAdmin: u.excluded, teamId: u.teamId })),
    teams: snapshot.teams.map((t) => ({ id: t.id, name: t.name })),
    solves: snapshot.solves.map((s) => ({
      userId: s.user_id,
      challengeId: s.challenge_id,
      teamId: s.team_id,
      time: s.created_at,
    })),
    points: new Map(snapshot.challenges.map((c) => [c.id, c.points])),
    scorings: new Map(snapshot.challenges.map((c) => [c.id, c.scoring])),
    unlocks: snapshot.unlocks.map((u) => ({
      userId: u.user_id,
      teamId: u.team_id,
      cost: u.cost,
      time: u.created_at,
    })),
    awards: (snapshot.awards ?? []).map((a) => ({
      userId: a.user_id,
      teamId: a.team_id,
      points: a.points,
      time: a.created_at,
    })),
    cutoff,
  };
}

/** Everything derived from one board agrees with the reference ranking and with itself. */
function checkBoard(board: ScoreBoard, snapshot: BoardSnapshot, cutoff: string | null): void {
  const expected = rankCompetitors(reference(snapshot, cutoff));
  const ranked = board.ranked.map((c) => ({
    kind: c.kind,
    id: c.id,
    name: c.name,
    points: c.points,
    lastSolveAt: c.lastSolveAt,
  }));
  expect(ranked).toEqual(expected);
  expect(leaderboardEntries(board)).toEqual(expected.map(({ name, points }) => ({ name, points })));
  // The graph's last points are the scores.
  const graph = graphSeries(board, expected.length);
  expect(graph.map((s) => s.points.at(-1)?.score)).toEqual(expected.map((c) => c.points));
  // CTFtime: same order and scores; a competitor's task points and awards add up to its score plus its costs.
  const feed = ctftimeFeed(board, []);
  expect(feed.standings.map((s) => [s.pos, s.team, s.score])).toEqual(
    expected.map((c, i) => [i + 1, c.name, c.points]),
  );
  board.ranked.forEach((c, i) => {
    const tasks = Object.values(feed.standings[i]!.taskStats).reduce((sum, t) => sum + t.points, 0);
    expect(tasks + c.bonus - c.costs).toBe(c.points);
  });
  // Exports: the scoreboard rows are the board; each competitor's solve rows add up to its score.
  expect(scoreboardRows(board).map((r) => [r.pos, r.name, r.points])).toEqual(
    expected.map((c, i) => [i + 1, c.name, c.points]),
  );
  const rows = solveRows(
    board,
    snapshot.solves,
    undefined,
    (snapshot.awards ?? []) as (BoardAward & { reason: string })[],
  );
  for (const c of board.ranked) {
    const mine = rows.filter((r) =>
      c.kind === 'team' ? r.team === c.name : r.team === '' && r.user === c.name,
    );
    expect(mine.reduce((sum, r) => sum + r.points, 0) - c.costs).toBe(c.points);
  }
}

/** The whole generated event as the board's snapshot. */
function snapshotOf(e: {
  challenges: BoardSnapshot['challenges'];
  users: BoardSnapshot['users'];
  teams: BoardSnapshot['teams'];
  solves: BoardSnapshot['solves'];
  unlocks: BoardSnapshot['unlocks'];
  awards: BoardSnapshot['awards'];
}): BoardSnapshot {
  const { challenges, users, teams, solves, unlocks, awards } = e;
  return { challenges, users, teams, solves, unlocks, awards };
}

describe('the score board against the reference model (property)', () => {
  it('agrees built at once, kept up to date batch by batch, after removals and rescoring, live and frozen', () => {
    fc.assert(
      fc.property(eventArb, (e) => {
        const full = snapshotOf(e);
        for (const cutoff of [null, at(e.cut)]) {
          // Built from scratch.
          checkBoard(new ScoreBoard(full, cutoff), full, cutoff);
          // Kept up to date: an empty start, then the solves and unlocks in batches (some twice).
          const board = new ScoreBoard({ ...full, solves: [], unlocks: [], awards: [] }, cutoff);
          const size = Math.ceil(e.solves.length / e.batches) || 1;
          for (let i = 0; i < e.solves.length; i += size) {
            // The awards come with the first batch and again with the second (applied once).
            const awards = i <= size ? e.awards : [];
            expect(
              board.apply(e.solves.slice(Math.max(0, i - 1), i + size), i === 0 ? e.unlocks : [], awards),
            ).toBe(true);
          }
          if (e.solves.length === 0) board.apply([], e.unlocks, e.awards);
          checkBoard(board, full, cutoff);
        }
        // Removals (a user and their solves) and parameter changes rebuild: still the reference.
        const gone = new Set(e.removed.map((r) => e.users[r % e.users.length]!.id));
        const challenges = e.challenges.map((c) => {
          const change = e.rescored.find((r) => (r.challenge % e.challenges.length) + 1 === c.id);
          return change ? { ...c, scoring: change.scoring } : c;
        });
        const after: BoardSnapshot = {
          challenges,
          users: e.users.filter((u) => !gone.has(u.id)),
          teams: e.teams,
          solves: e.solves.filter((s) => !gone.has(s.user_id)),
          unlocks: e.unlocks.filter((u) => !gone.has(u.user_id)),
          awards: e.awards.filter((a) => a.user_id === null || !gone.has(a.user_id)),
        };
        checkBoard(new ScoreBoard(after, null), after, null);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the score board kept up to date one change at a time (property)', () => {
  it('moves each changed row to its place (the rows between shift), as a board built at once ranks them', () => {
    fc.assert(
      fc.property(eventArb, (e) => {
        const full = snapshotOf(e);
        // One solve, unlock or award per apply, as correct flags arrive: each moves a row or a few
        // (a dynamic challenge's solvers), up or down (costs, negative awards), on or off the board.
        const steps = [
          ...e.solves.map((s) => ({ solves: [s], unlocks: [], awards: [] })),
          ...e.unlocks.map((u) => ({ solves: [], unlocks: [u], awards: [] })),
          ...e.awards.map((a) => ({ solves: [], unlocks: [], awards: [a] })),
        ].sort((a, b) => (a.solves.length - b.solves.length) * ((e.cut % 3) - 1));
        const board = new ScoreBoard({ ...full, solves: [], unlocks: [], awards: [] }, null);
        const applied: BoardSnapshot = { ...full, solves: [], unlocks: [], awards: [] };
        for (const step of steps) {
          expect(board.apply(step.solves, step.unlocks, step.awards)).toBe(true);
          applied.solves = [...applied.solves, ...step.solves];
          applied.unlocks = [...applied.unlocks, ...step.unlocks];
          applied.awards = [...(applied.awards ?? []), ...step.awards];
          const names = (b: ScoreBoard) => b.ranked.map((c) => `${c.kind}${c.id}:${c.points}`);
          expect(names(board)).toEqual(names(new ScoreBoard(applied, null)));
          board.ranked.forEach((c, i) => expect(board.placeOf(c)).toBe(i));
        }
        checkBoard(board, full, null);
      }),
      { numRuns: 200 },
    );
  });
});
