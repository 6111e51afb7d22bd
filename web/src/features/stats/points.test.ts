import { describe, expect, it } from 'vitest';
import { pointsByMember } from './points';

const c = (memberName: string, points: number, id: string) => ({
  id,
  memberName,
  points,
  name: `C${id}`,
  time: '2025-10-15T01:00:00Z',
});

describe('pointsByMember', () => {
  it('sums points by member name, in the order members first scored', () => {
    expect(pointsByMember([c('bob', 100, '1'), c('amy', 50, '2'), c('bob', 300, '3')])).toEqual([
      { name: 'bob', points: 400 },
      { name: 'amy', points: 50 },
    ]);
  });
  it('is empty for no completions', () => {
    expect(pointsByMember([])).toEqual([]);
  });
});
