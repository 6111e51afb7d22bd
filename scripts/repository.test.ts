import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = new URL('../', import.meta.url);
const readText = (path: string) => readFile(new URL(path, root), 'utf8');

/** Every package of the workspace is released together, under one licence. */
const PACKAGE_FILES = [
  'package.json',
  'contract/package.json',
  'server/package.json',
  'web/package.json',
  'e2e/package.json',
];

describe('the release', () => {
  it('gives every package and the lock file one version and the Apache-2.0 licence', async () => {
    const release = JSON.parse(await readText('package.json'));
    const lock = JSON.parse(await readText('package-lock.json'));
    expect(lock.version).toBe(release.version);
    for (const file of PACKAGE_FILES) {
      const pkg = JSON.parse(await readText(file));
      expect({ file, version: pkg.version, license: pkg.license }).toEqual({
        file,
        version: release.version,
        license: 'Apache-2.0',
      });
      const folder = file.replace(/\/?package\.json$/, '');
      expect(lock.packages[folder]).toMatchObject({ version: release.version, license: 'Apache-2.0' });
      // Workspaces depend on the contract at the release's own version.
      const contractDep = pkg.dependencies?.['@ctf/contract'] ?? pkg.devDependencies?.['@ctf/contract'];
      if (contractDep !== undefined)
        expect({ file, contractDep }).toEqual({ file, contractDep: release.version });
    }
  });

  it('has a CHANGELOG section for it and the licence text', async () => {
    const { version } = JSON.parse(await readText('package.json'));
    const changelog = await readText('CHANGELOG.md');
    expect(changelog).toContain('## [Unreleased]');
    expect(changelog).toMatch(
      new RegExp(`^## \\[${version.replaceAll('.', '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'),
    );
    const license = await readText('LICENSE');
    expect(license).toContain('Apache License');
    expect(license).toContain('Version 2.0, January 2004');
    expect(license).toContain('END OF TERMS AND CONDITIONS');
  });
});

/** Folders that hold what the tools make, never what the repository says. */
const GENERATED = new Set(['.git', 'node_modules', 'dist', 'data', 'coverage', 'test-results', '.runs']);

/** The repository's files: git's list (tracked, and new files not ignored), or the tree without git. */
async function repositoryFiles(): Promise<string[]> {
  const cwd = fileURLToPath(root);
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return out.split('\0').filter((f) => f !== '');
  } catch {
    const entries = await readdir(cwd, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => path.relative(cwd, path.join(e.parentPath, e.name)))
      .filter((f) => !f.split(path.sep).some((part) => GENERATED.has(part)));
  }
}

describe('the repository describes itself', () => {
  // Written in pieces, so that this file does not name what it looks for.
  const outside = new RegExp(
    [
      ...['SPEC', 'DESIGN', 'STYLE', 'STACK-NOTES'].map((name) => `\\b${name}\\.md\\b`),
      ...['SPEC', 'DESIGN'].map((word) => `\\b${word}\\b`),
      ['\\.\\.', 'shared\\b'].join('/'),
      ['', 'work', 'shared\\b'].join('/'),
    ].join('|'),
  );
  const self = path.relative(fileURLToPath(root), fileURLToPath(import.meta.url));

  it('cites only its own documents (docs/product.md, docs/architecture.md, ...), never a file outside it', async () => {
    const files = await repositoryFiles();
    expect(files).toContain('docs/product.md');
    const found: string[] = [];
    for (const file of files) {
      if (file === self || file === 'package-lock.json') continue;
      let bytes: Buffer;
      try {
        bytes = await readFile(new URL(file, root));
      } catch {
        continue; // listed by git but deleted in the working tree
      }
      if (bytes.includes(0)) continue; // images and other binary files
      bytes
        .toString('utf8')
        .split('\n')
        .forEach((line, i) => {
          if (outside.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('recognises a citation of a file outside it', () => {
    const cited = ['(', 'SPEC', '.md §8)'].join('');
    expect(outside.test(`/** Colours of ${cited}. */`)).toBe(true);
    expect(outside.test(['see ../', 'shared/', 'DESIGN', '.md'].join(''))).toBe(true);
    expect(outside.test('/** Colours of docs/product.md §8. */')).toBe(false);
  });
});

describe('what a reader sees names changes, not tracker numbers', () => {
  // A reader cannot open the tracker: README, CHANGELOG and docs/ say what changed instead.
  const trackerNumber = new RegExp(['\\bissues?', '#?\\d+'].join('\\s+'), 'i');

  it('has no tracker number in README.md, CHANGELOG.md, CONTRIBUTING.md, SECURITY.md or docs/', async () => {
    const files = (await repositoryFiles()).filter(
      (f) =>
        /^(README|CHANGELOG|CONTRIBUTING|SECURITY)\.md$/.test(f) ||
        (f.startsWith('docs/') && f.endsWith('.md')),
    );
    expect(files).toContain('README.md');
    expect(files).toContain('docs/product.md');
    const found: string[] = [];
    for (const file of files) {
      const text = await readFile(new URL(file, root), 'utf8').catch(() => '');
      text.split('\n').forEach((line, i) => {
        if (trackerNumber.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('recognises a tracker number', () => {
    expect(trackerNumber.test(['(', 'issue', ' 32)'].join(''))).toBe(true);
    expect(trackerNumber.test(['', 'Issues', ' 15-20'].join(''))).toBe(true);
    expect(trackerNumber.test('Report issues on the tracker.')).toBe(false);
  });
});
