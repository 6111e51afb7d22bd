import { FLAG_MAX_LENGTH } from '@ctf/contract';
import { describe, expect, it } from 'vitest';
import { challengeMatcher, normaliseFlags } from './flags.js';

describe('flag matching', () => {
  it('compares static flags exactly, after trimming the submission', () => {
    const m = challengeMatcher([{ type: 'static', content: 'flag{Right}' }]);
    expect(m('  flag{Right}\n')).toBe(true);
    expect(m('flag{right}')).toBe(false);
    expect(m('flag{Right}x')).toBe(false);
  });

  it('compares case-insensitive flags ignoring case', () => {
    const m = challengeMatcher([{ type: 'case_insensitive', content: 'Flag{Right}' }]);
    expect(m('FLAG{RIGHT}')).toBe(true);
    expect(m('flag{wrong}')).toBe(false);
  });

  it('matches a regex against the whole submission, never a part of it', () => {
    const m = challengeMatcher([{ type: 'regex', content: 'flag\\{[0-9]+\\}' }]);
    expect(m('flag{123}')).toBe(true);
    expect(m(' flag{123} ')).toBe(true);
    expect(m('xflag{123}')).toBe(false);
    expect(m('flag{123}x')).toBe(false);
  });

  it('accepts any of several flags', () => {
    const m = challengeMatcher([
      { type: 'static', content: 'a' },
      { type: 'case_insensitive', content: 'B' },
      { type: 'regex', content: 'c+' },
    ]);
    expect(['a', 'b', 'ccc'].map(m)).toEqual([true, true, true]);
    expect(['A', 'd', ''].map(m)).toEqual([false, false, false]);
  });

  it('answers a catastrophic pattern against the longest accepted flag in under 10 ms', () => {
    const m = challengeMatcher([
      { type: 'regex', content: '(a+)+$' },
      { type: 'regex', content: '(x+x+)+y' },
    ]);
    const evil = 'a'.repeat(FLAG_MAX_LENGTH - 1) + '!';
    m(evil); // the first call compiles re2js's machinery
    const start = performance.now();
    expect(m(evil)).toBe(false);
    expect(m('x'.repeat(FLAG_MAX_LENGTH))).toBe(false);
    expect(performance.now() - start).toBeLessThan(10);
  });
});

describe('normaliseFlags (checked when saved)', () => {
  it('trims static flags and keeps regex patterns as written', () => {
    expect(
      normaliseFlags([
        { type: 'static', content: ' f ' },
        { type: 'regex', content: 'a b' },
      ]),
    ).toEqual([
      { type: 'static', content: 'f' },
      { type: 'regex', content: 'a b' },
    ]);
  });

  it('refuses an invalid regex with a message naming the flag', () => {
    expect(() =>
      normaliseFlags([
        { type: 'static', content: 'ok' },
        { type: 'regex', content: '(a' },
      ]),
    ).toThrow(/Invalid flags\.1: not a valid regular expression/);
    // Back-references and look-arounds need backtracking: RE2 refuses them.
    expect(() => normaliseFlags([{ type: 'regex', content: '(a)\\1' }])).toThrow(/regular expression/);
    expect(() => normaliseFlags([{ type: 'regex', content: '(?=a)a' }])).toThrow(/regular expression/);
  });

  it('refuses a static flag longer than any submission could be', () => {
    expect(() => normaliseFlags([{ type: 'static', content: 'x'.repeat(FLAG_MAX_LENGTH + 1) }])).toThrow(
      /at most/,
    );
  });
});
