import type { PublicChallenge } from '@ctf/contract';
import { describe, expect, it } from 'vitest';
import type { ScoreBoard } from '../scoreboard/score-board.js';
import { withCurrentValues } from './challenge-views.js';
import { serialiseList } from './public-list.js';

function challenge(id: number, name: string, points: number): PublicChallenge {
  return {
    _id: String(id),
    name,
    description: `<p>${name} "quoted" \u2028 ünïcödé \\ </p>`,
    category: 'web',
    difficulty: 'easy',
    written_by: 'ada',
    points,
    scoring_type: 'static',
    rating: 0,
    is_active: true,
    user_completions: 0,
    hlinks: [`/api/uploads/${id}.zip`],
    first_blood: null,
  };
}

/** What withCurrentValues reads of a board: values and counts by challenge id, no freeze. */
function board(values: Record<number, [points: number, count: number]>): ScoreBoard {
  const entries = Object.entries(values).map(([id, v]) => [Number(id), v] as const);
  return {
    values: new Map(entries.map(([id, [points]]) => [id, points])),
    counts: new Map(entries.map(([id, [, count]]) => [id, count])),
    cutoff: null,
    firstSolves: new Map(),
  } as unknown as ScoreBoard;
}

describe('the challenge list serialised from each challenge kept text', () => {
  const base = [challenge(1, 'Alpha', 100), challenge(2, 'Bravo', 100), challenge(3, 'Charlie', 200)];

  it('is the text JSON.stringify gives, empty list included', () => {
    expect(serialiseList([])).toBe('[]');
    expect(serialiseList(base)).toBe(JSON.stringify(base));
    // Again from the kept texts, and for a list in another order.
    expect(serialiseList(base)).toBe(JSON.stringify(base));
    const reversed = [...base].reverse();
    expect(serialiseList(reversed)).toBe(JSON.stringify(reversed));
  });

  it('keeps a valued challenge while its value holds, and values anew the one a solve moved', () => {
    const first = withCurrentValues(base, board({ 1: [100, 3], 2: [100, 5], 3: [200, 0] }));
    const second = withCurrentValues(base, board({ 1: [100, 3], 2: [100, 6], 3: [200, 0] }));
    expect(second[0]).toBe(first[0]);
    expect(second[2]).toBe(first[2]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1]).toMatchObject({ _id: '2', user_completions: 6 });
    expect(serialiseList(first)).toBe(JSON.stringify(first));
    expect(serialiseList(second)).toBe(JSON.stringify(second));
    expect(JSON.parse(serialiseList(second))[1].user_completions).toBe(6);
  });

  it('orders equal values by name as compareChallenges does: case and numbers as people read them', () => {
    const named = ['beta', 'Chall 10', 'Alpha', 'Chall 9'].map((name, i) => challenge(i + 1, name, 100));
    const valued = withCurrentValues(named, board({ 1: [100, 0], 2: [100, 0], 3: [100, 0], 4: [100, 0] }));
    expect(valued.map((c) => c.name)).toEqual(['Alpha', 'beta', 'Chall 9', 'Chall 10']);
    // Valued again (a solve moved a count), the kept order by name still holds, and values lead.
    const again = withCurrentValues(named, board({ 1: [100, 1], 2: [50, 0], 3: [100, 0], 4: [100, 0] }));
    expect(again.map((c) => c.name)).toEqual(['Chall 10', 'Alpha', 'beta', 'Chall 9']);
  });

  it('orders by the current values: a dynamic value that fell moves its challenge up', () => {
    const valued = withCurrentValues(base, board({ 1: [100, 0], 2: [100, 0], 3: [50, 9] }));
    expect(valued.map((c) => c.name)).toEqual(['Charlie', 'Alpha', 'Bravo']);
    expect(serialiseList(valued)).toBe(JSON.stringify(valued));
  });
});
