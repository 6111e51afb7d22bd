import { readFile } from 'node:fs/promises';
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
