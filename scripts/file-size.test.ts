import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * House rule (CONTRIBUTING.md): past about 300 lines a file is split by responsibility, and 400 is
 * the ceiling, for every TypeScript source and test file the repository tracks.
 */
const MAX_LINES = 400;
const root = fileURLToPath(new URL('../', import.meta.url));

function trackedSources(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--', '*.ts', '*.tsx', '*.mjs', '*.cjs'], {
    cwd: root,
    encoding: 'utf8',
  });
  return out.split('\0').filter((f) => f && !f.includes('/migrations/'));
}

describe('source files', () => {
  it(`stay within ${MAX_LINES} lines`, () => {
    const files = trackedSources();
    expect(files.length).toBeGreaterThan(100);
    const over = files
      .map((file) => ({ file, lines: readFileSync(`${root}${file}`, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > MAX_LINES);
    expect(over).toEqual([]);
  });
});
