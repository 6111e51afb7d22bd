import { describe, expect, it } from 'vitest';
import { SECTION_KEYS, sectionOf } from './settings-sections';

describe('the Settings tab’s sections', () => {
  it('edit each setting in one section only (the type check proves every setting has one)', () => {
    const all: string[] = Object.values(SECTION_KEYS).flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all).toContain('allowCreateDuringEvent');
  });

  it('open the section the address names, else Event', () => {
    expect(sectionOf('writeups')).toBe('writeups');
    expect(sectionOf(null)).toBe('event');
    expect(sectionOf('nope')).toBe('event');
  });
});
