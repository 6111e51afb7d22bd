import { describe, expect, it } from 'vitest';
import { agreeing, counted } from './plural.js';

describe('counts in words', () => {
  it('uses the singular for one (and minus one), the plural otherwise', () => {
    expect(counted(1, 'challenge')).toBe('1 challenge');
    expect(counted(0, 'challenge')).toBe('0 challenges');
    expect(counted(3, 'error')).toBe('3 errors');
    expect(counted(-1, 'point')).toBe('-1 point');
    expect(counted(2, 'spot left', 'spots left')).toBe('2 spots left');
    expect(`${counted(1, 'challenge')} ${agreeing(1, 'matches', 'match')}`).toBe('1 challenge matches');
    expect(`${counted(4, 'challenge')} ${agreeing(4, 'matches', 'match')}`).toBe('4 challenges match');
  });
});
