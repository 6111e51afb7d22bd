import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { listChallengesForAdmin } from '../modules/challenges/challenges.service.js';
import { readZipArchive } from '../modules/challenge-archive/archive-reader.js';
import { runChallengesCommand } from './challenges.js';

/** The sample repository under docs/: imported here so it cannot rot. */
const SAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/sample-challenges');

describe('npm run challenges (import / export CLI)', () => {
  let t: TestApp;
  let out: string;

  beforeEach(async () => {
    t = await buildTestApp('sqlite');
    out = mkdtempSync(path.join(tmpdir(), 'ctf-export-'));
  });
  afterEach(async () => {
    await t.close();
    rmSync(out, { recursive: true, force: true });
  });

  it('imports the sample repository in docs/ (dry run first), then exports it back', async () => {
    const dry = await runChallengesCommand(t.ctx, ['import', SAMPLES, '--dry-run']);
    expect(dry.out).toContain('Dry run: 3 challenge(s) would be created and 0 updated');
    expect(dry.out).toContain('would be created: Caesar Salad, First Steps, Regex Club\n');
    expect(dry.code).toBe(0);
    expect(await listChallengesForAdmin(t.ctx)).toEqual([]);

    const run = await runChallengesCommand(t.ctx, ['import', SAMPLES]);
    expect(run.out).toBe(
      [
        'Imported 3 challenge(s): 3 created, 0 updated.',
        'created: Caesar Salad, First Steps, Regex Club',
        "warning README.md: 'README.md' lies in no challenge folder and was ignored.",
        '',
      ].join('\n'),
    );
    expect(run.code).toBe(0);
    const list = await listChallengesForAdmin(t.ctx);
    const byName = new Map(list.map((c) => [c.name, c]));
    const first = byName.get('First Steps')!;
    expect(first).toMatchObject({
      difficulty: 'Simple',
      points: 50,
      hlinks: ['first-steps.zip'],
      is_active: true,
    });
    const packed = await readZipArchive(readFileSync(path.join(t.config.uploadDir, 'first-steps.zip')), 'x');
    expect(packed.get('files/welcome.txt')!.toString()).toContain('flag{welcome_aboard}');
    expect(byName.get('Caesar Salad')).toMatchObject({
      scoring: { type: 'dynamic', function: 'logarithmic', initial: 300, minimum: 100, decay: 20 },
      flags: [{ type: 'case_insensitive', content: 'flag{rotate_me}' }],
      prerequisites: [first._id],
      max_attempts: 10,
    });
    expect(byName.get('Regex Club')).toMatchObject({
      is_active: false,
      release_at: '2030-01-01T18:00:00.000Z',
      flags: [{ type: 'regex', content: 'flag\\{club-[0-9]{4}\\}' }],
    });

    const exported = await runChallengesCommand(t.ctx, ['export', out]);
    expect(exported).toEqual({ code: 0, out: `Exported 3 challenge(s) to ${out}.\n` });
    expect(readdirSync(out).sort()).toEqual(['caesar-salad', 'first-steps', 'regex-club']);
    expect(readdirSync(path.join(out, 'first-steps')).sort()).toEqual(['challenge.yml', 'first-steps.zip']);
    // Importing the export changes nothing.
    const again = await runChallengesCommand(t.ctx, ['import', out]);
    expect(again.out).toContain('0 created, 3 updated');
    const strip = (l: typeof list) =>
      l.map(({ hints, ...c }) => ({ ...c, hints: hints.map(({ _id: _, ...h }) => h) }));
    expect(strip(await listChallengesForAdmin(t.ctx))).toEqual(strip(list));

    const refused = await runChallengesCommand(t.ctx, ['export', out]);
    expect(refused.code).toBe(1);
  });

  it('reports errors with file:line and exits 1; usage on a bad command', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ctf-bad-'));
    try {
      writeFileSync(
        path.join(dir, 'challenge.yml'),
        'name: Bad\nauthor: x\ncategory: General\nvalue: 10\nflags: []\n',
      );
      const res = await runChallengesCommand(t.ctx, ['import', dir]);
      expect(res.code).toBe(1);
      expect(res.out).toContain("error challenge.yml:5: 'flags' must list at least one flag.");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect((await runChallengesCommand(t.ctx, ['frobnicate'])).code).toBe(2);
  });
});
