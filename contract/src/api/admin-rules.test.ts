import { describe, expect, it } from 'vitest';
import { IMPORT_ERRORS_IN_MESSAGE, importRefusedText } from './admin-rules.js';

describe('a refused import’s message', () => {
  it('counts the errors in the right number and names their reasons', () => {
    expect(importRefusedText([{ file: 'a/challenge.yml', line: 3, message: 'flag: is required' }])).toBe(
      'Nothing was imported: 1 error. a/challenge.yml, line 3: flag: is required',
    );
    expect(
      importRefusedText([
        { file: '', line: null, message: 'The file is not a ZIP archive.' },
        { file: 'b/challenge.yml', line: null, message: 'name: is required' },
      ]),
    ).toBe(
      'Nothing was imported: 2 errors. The file is not a ZIP archive. b/challenge.yml: name: is required',
    );
  });

  it(`spells out the first ${IMPORT_ERRORS_IN_MESSAGE} and counts the rest`, () => {
    const errors = Array.from({ length: 5 }, (_, i) => ({
      file: `c${i}/challenge.yml`,
      line: 1,
      message: 'x.',
    }));
    const text = importRefusedText(errors);
    expect(text.startsWith('Nothing was imported: 5 errors. c0/challenge.yml, line 1: x.')).toBe(true);
    expect(text).toContain('c2/challenge.yml');
    expect(text).not.toContain('c3/challenge.yml');
    expect(text.endsWith('(and 2 more)')).toBe(true);
  });
});
