import { CHALLENGE_PAGE_SIZE, DESCRIPTION_PREVIEW_LENGTH, UI_TEXT } from '@ctf/contract';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FILTERS,
  authorOf,
  authorsOf,
  descriptionPreview,
  filterChallenges,
  paginate,
} from './filter';
import { makeChallenge } from './testing';

const none = { mine: new Set<string>(), team: null };
const all = { ...DEFAULT_FILTERS, myUncompleted: false, teamUncompleted: false };
const names = (list: { name: string }[]) => list.map((c) => c.name);

describe('filterChallenges', () => {
  const list = [
    makeChallenge(1, {
      name: 'SQL Injection',
      category: 'Web Exploitation',
      written_by: 'Mallory',
      rating: 4.5,
    }),
    makeChallenge(2, {
      name: 'Caesar',
      category: 'Cryptography',
      difficulty: 'Simple',
      written_by: 'Bob',
      rating: 2,
    }),
    makeChallenge(3, {
      name: 'Packed',
      category: 'Reverse Engineering',
      difficulty: 'Hard',
      written_by: '',
      rating: 3,
    }),
  ];

  it('searches name, category or author, ignoring case', () => {
    expect(names(filterChallenges(list, { ...all, search: 'sql' }, none))).toEqual(['SQL Injection']);
    expect(names(filterChallenges(list, { ...all, search: 'CRYPTO' }, none))).toEqual(['Caesar']);
    expect(names(filterChallenges(list, { ...all, search: 'mallory' }, none))).toEqual(['SQL Injection']);
    expect(names(filterChallenges(list, { ...all, search: 'unknown auth' }, none))).toEqual(['Packed']);
    expect(names(filterChallenges(list, { ...all, search: '  ' }, none))).toHaveLength(3);
  });

  it('filters by category, difficulty, author and minimum rating', () => {
    expect(names(filterChallenges(list, { ...all, category: 'Cryptography' }, none))).toEqual(['Caesar']);
    expect(names(filterChallenges(list, { ...all, difficulty: 'Hard' }, none))).toEqual(['Packed']);
    expect(names(filterChallenges(list, { ...all, author: UI_TEXT.unknownAuthor }, none))).toEqual([
      'Packed',
    ]);
    expect(names(filterChallenges(list, { ...all, minRating: 3 }, none))).toEqual([
      'SQL Injection',
      'Packed',
    ]);
    expect(names(filterChallenges(list, { ...all, minRating: 4 }, none))).toEqual(['SQL Injection']);
    expect(filterChallenges(list, { ...all, minRating: 0 }, none)).toHaveLength(3);
  });

  it('by default shows only what neither I nor my team completed', () => {
    const state = { mine: new Set(['1']), team: new Set(['2']) };
    expect(names(filterChallenges(list, DEFAULT_FILTERS, state))).toEqual(['Packed']);
  });

  it('keeps one side of a completed/uncompleted pair, or everything when both or neither are on', () => {
    const state = { mine: new Set(['1']), team: null };
    const mineOnly = { ...all, myCompleted: true };
    expect(names(filterChallenges(list, mineOnly, state))).toEqual(['SQL Injection']);
    expect(filterChallenges(list, { ...mineOnly, myUncompleted: true }, state)).toHaveLength(3);
    expect(filterChallenges(list, all, state)).toHaveLength(3);
    const team = { mine: new Set<string>(), team: new Set(['2', '3']) };
    expect(names(filterChallenges(list, { ...all, teamCompleted: true }, team))).toEqual([
      'Caesar',
      'Packed',
    ]);
    expect(names(filterChallenges(list, { ...all, teamUncompleted: true }, team))).toEqual(['SQL Injection']);
  });

  it('ignores the team boxes for a user on no team', () => {
    expect(filterChallenges(list, { ...all, teamCompleted: true }, none)).toHaveLength(3);
  });
});

describe('paginate', () => {
  const items = Array.from({ length: 45 }, (_, i) => i);
  it('cuts pages of CHALLENGE_PAGE_SIZE', () => {
    expect(paginate(items, 1)).toMatchObject({ page: 1, pageCount: 3 });
    expect(paginate(items, 1).items).toHaveLength(CHALLENGE_PAGE_SIZE);
    expect(paginate(items, 3).items).toEqual([40, 41, 42, 43, 44]);
  });
  it('clamps the page into range and has one page when empty', () => {
    expect(paginate(items, 9).page).toBe(3);
    expect(paginate(items, 0).page).toBe(1);
    expect(paginate([], 2)).toEqual({ items: [], page: 1, pageCount: 1 });
  });
});

describe('descriptionPreview', () => {
  it('keeps the text of the HTML only', () => {
    expect(
      descriptionPreview('<p>Find the <b>flag</b></p><script>alert(1)</script><p>in  the\n file</p>'),
    ).toBe('Find the flag in the file');
    expect(descriptionPreview('line one<br>line two<style>p{}</style>')).toBe('line one line two');
    expect(descriptionPreview('<img src=x onerror="alert(1)">Hello')).toBe('Hello');
  });
  it('cuts to DESCRIPTION_PREVIEW_LENGTH characters', () => {
    const long = 'a'.repeat(DESCRIPTION_PREVIEW_LENGTH + 20);
    expect(descriptionPreview(long)).toBe(`${'a'.repeat(DESCRIPTION_PREVIEW_LENGTH)}...`);
    expect(descriptionPreview('a'.repeat(DESCRIPTION_PREVIEW_LENGTH))).toBe(
      'a'.repeat(DESCRIPTION_PREVIEW_LENGTH),
    );
  });
});

describe('authors', () => {
  it("names 'Unknown Author' when none is given and lists each author once, sorted", () => {
    expect(authorOf({ written_by: '  ' })).toBe(UI_TEXT.unknownAuthor);
    expect(
      authorsOf([
        makeChallenge(1, { written_by: 'zed' }),
        makeChallenge(2, { written_by: 'Amy' }),
        makeChallenge(3, { written_by: 'zed' }),
      ]),
    ).toEqual(['Amy', 'zed']);
  });
});
