import { describe, expect, it } from 'vitest';
import {
  compareCodePoints,
  leaderboardOf,
  rankCompetitors,
  teamCredits,
  type ScoringInput,
  type ScoringSolve,
  type ScoringTeam,
  type ScoringUser,
} from './scoring.js';

const T0 = Date.parse('2025-10-15T01:00:00Z');
/** Minute n of the event. */
const at = (minute: number) => new Date(T0 + minute * 60_000).toISOString();

/** Challenges 1..5 worth Simple 50, Easy 100, Medium 200, Hard 300, Extreme 400; 6 another Simple. */
const points = new Map([
  [6, 50],
  [1, 50],
  [2, 100],
  [3, 200],
  [4, 300],
  [5, 400],
]);

function input(users: ScoringUser[], teams: ScoringTeam[], solves: ScoringSolve[]): ScoringInput {
  return { users, teams, solves, points };
}
const user = (id: number, name: string, teamId: number | null = null, isAdmin = false): ScoringUser => ({
  id,
  name,
  teamId,
  isAdmin,
});
const solve = (userId: number, challengeId: number, teamId: number | null, minute: number): ScoringSolve => ({
  userId,
  challengeId,
  teamId,
  time: at(minute),
});

describe('scoring model', () => {
  const cases: { name: string; data: ScoringInput; expected: { name: string; points: number }[] }[] = [
    {
      name: 'a solo user scores the solves they made with no team',
      data: input([user(1, 'ann')], [], [solve(1, 1, null, 1), solve(1, 3, null, 2)]),
      expected: [{ name: 'ann', points: 250 }],
    },
    {
      name: 'a team counts a challenge once, however many members solved it',
      data: input(
        [user(1, 'ann', 10), user(2, 'bob', 10)],
        [{ id: 10, name: 'Red' }],
        [solve(1, 2, 10, 1), solve(2, 2, 10, 2), solve(2, 4, 10, 3)],
      ),
      expected: [{ name: 'Red', points: 400 }],
    },
    {
      name: 'members are not listed on their own; their solo solves from before count for nobody',
      data: input(
        [user(1, 'ann', 10)],
        [{ id: 10, name: 'Red' }],
        [solve(1, 5, null, 1), solve(1, 1, 10, 2)],
      ),
      expected: [{ name: 'Red', points: 50 }],
    },
    {
      name: 'a team keeps what a member solved on it after they leave; the leaver starts from their solo solves',
      data: input(
        [user(1, 'ann', null), user(2, 'bob', 10)],
        [{ id: 10, name: 'Red' }],
        [solve(1, 3, 10, 1), solve(1, 1, null, 5), solve(2, 2, 10, 2)],
      ),
      expected: [
        { name: 'Red', points: 300 },
        { name: 'ann', points: 50 },
      ],
    },
    {
      name: 'joining a team brings nothing: the new team scores only solves recorded with it',
      data: input(
        [user(1, 'ann', 20)],
        [
          { id: 10, name: 'Old' },
          { id: 20, name: 'New' },
        ],
        [solve(1, 4, 10, 1), solve(1, 2, 20, 9)],
      ),
      expected: [
        { name: 'Old', points: 300 },
        { name: 'New', points: 100 },
      ],
    },
    {
      name: 'solves recorded with a removed team count for nobody',
      data: input([user(1, 'ann', null)], [], [solve(1, 5, 99, 1)]),
      expected: [],
    },
    {
      name: 'a user whose team id names no team is teamless',
      data: input([user(1, 'ann', 99)], [], [solve(1, 1, null, 1)]),
      expected: [{ name: 'ann', points: 50 }],
    },
    {
      name: 'admins are not listed and their solves count nowhere, not even for their team',
      data: input(
        [user(1, 'root', null, true), user(2, 'op', 10, true), user(3, 'bob', 10)],
        [{ id: 10, name: 'Red' }],
        [solve(1, 5, null, 1), solve(2, 4, 10, 1), solve(3, 1, 10, 2)],
      ),
      expected: [{ name: 'Red', points: 50 }],
    },
    {
      name: 'competitors with no points are not listed',
      data: input([user(1, 'ann'), user(2, 'bob', 10)], [{ id: 10, name: 'Red' }], []),
      expected: [],
    },
    {
      name: 'a solve of a deleted challenge counts nothing',
      data: input([user(1, 'ann')], [], [solve(1, 42, null, 1)]),
      expected: [],
    },
    {
      name: 'ties go to the competitor whose last scoring solve came first',
      data: input(
        [user(1, 'amy'), user(2, 'zed')],
        [],
        // amy: 50 + 50, the last at minute 3; zed: 100 at minute 1.
        [solve(1, 1, null, 0), solve(1, 6, null, 3), solve(2, 2, null, 1)],
      ),
      expected: [
        { name: 'zed', points: 100 },
        { name: 'amy', points: 100 },
      ],
    },
    {
      name: "a team's tie time is the latest of its first solves, not a later duplicate",
      data: input(
        [user(1, 'ann', 10), user(2, 'bob', 10), user(3, 'cat')],
        [{ id: 10, name: 'Red' }],
        // Red scores 100 at minute 2; bob's duplicate at minute 9 does not move its time.
        [solve(1, 2, 10, 2), solve(2, 2, 10, 9), solve(3, 2, null, 5)],
      ),
      expected: [
        { name: 'Red', points: 100 },
        { name: 'cat', points: 100 },
      ],
    },
    {
      name: 'equal points and times fall back to the name, by code point',
      data: input(
        [user(1, 'bob'), user(2, 'Bob'), user(3, 'alice')],
        [],
        [solve(1, 1, null, 1), solve(2, 1, null, 1), solve(3, 1, null, 1)],
      ),
      expected: [
        { name: 'Bob', points: 50 },
        { name: 'alice', points: 50 },
        { name: 'bob', points: 50 },
      ],
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      expect(leaderboardOf(c.data)).toEqual(c.expected);
    });
  }

  it('credits each team challenge to the member who solved it first on the team', () => {
    const data = input(
      [user(1, 'ann', 10), user(2, 'bob', 10)],
      [{ id: 10, name: 'Red' }],
      [solve(2, 3, 10, 4), solve(1, 3, 10, 2), solve(1, 1, 10, 6)],
    );
    expect(teamCredits(data, 10)).toEqual([
      { challengeId: 3, userId: 1, points: 200, time: at(2) },
      { challengeId: 1, userId: 1, points: 50, time: at(6) },
    ]);
  });

  it('tells a team and a user of the same name and score apart, team first', () => {
    const data = input(
      [user(1, 'Red'), user(2, 'x', 10)],
      [{ id: 10, name: 'Red' }],
      [solve(1, 1, null, 1), solve(2, 1, 10, 1)],
    );
    expect(rankCompetitors(data).map((r) => r.kind)).toEqual(['team', 'user']);
  });

  it('orders names by code point, like the databases', () => {
    expect(compareCodePoints('a', 'b')).toBeLessThan(0);
    expect(compareCodePoints('B', 'a')).toBeLessThan(0);
    expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0);
    expect(compareCodePoints('same', 'same')).toBe(0);
    // U+FF21 (full-width A) sorts before U+1F600 by code point, though not by UTF-16 unit.
    expect(compareCodePoints('\uFF21', '\u{1F600}')).toBeLessThan(0);
    expect('\uFF21' < '\u{1F600}').toBe(false);
  });
});
