import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The one-way rules of .dependency-cruiser.cjs (what `npm run lint` runs), run through
 * dependency-cruiser's API: a tree with a cycle, an upward import and the like fails them, each
 * with the rule that names it, and the repository's own tree passes.
 */
const root = fileURLToPath(new URL('../', import.meta.url));
const configFile = join(root, '.dependency-cruiser.cjs');
const { SERVER_MODULE_ORDER } = createRequire(import.meta.url)(configFile) as {
  SERVER_MODULE_ORDER: string[];
};

async function cruiseWithProjectRules(baseDir: string, paths: string[]) {
  const options = await extractDepcruiseOptions(configFile);
  const tsConfig = extractTSConfig(join(root, 'server/tsconfig.check.json'));
  const { output } = await cruise(paths, { ...options, baseDir, outputType: 'json' }, {}, { tsConfig });
  const result = (typeof output === 'string' ? JSON.parse(output) : output) as ICruiseResult;
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
}

/** A small tree in the repository's layout, each file importing what the test names. */
const FIXTURE: Record<string, string[]> = {
  // Allowed: a module using one below it, routes -> service -> repo inside one module.
  'server/src/modules/scoreboard/scoreboard.service.ts': ['../event-state/event-state.service.js'],
  'server/src/modules/scoreboard/scoreboard.routes.ts': ['./scoreboard.service.js'],
  'server/src/modules/event-state/event-state.repo.ts': [],
  'server/src/modules/challenges/challenges.repo.ts': [],
  // An upward import: the bottom of the order reaching a module above it.
  'server/src/modules/event-state/event-state.service.ts': [
    '../site/site.service.js',
    './event-state.repo.js',
  ],
  'server/src/modules/site/site.service.ts': [],
  // A cycle inside one module.
  'server/src/modules/teams/teams.service.ts': ['./teams.presenter.js'],
  'server/src/modules/teams/teams.presenter.ts': ['./teams.service.js'],
  // Another module's repository (the module itself sits above challenges: only the repo is wrong).
  'server/src/modules/submissions/submissions.service.ts': ['../challenges/challenges.repo.js'],
  // A new module that nobody put in the order.
  'server/src/modules/bounties/bounties.service.ts': [],
  'server/src/modules/admin/admin.service.ts': ['../bounties/bounties.service.js'],
  // A web feature importing another feature, and one using shared code only.
  'web/src/features/home/HomePage.tsx': ['../rules/RulesPage', '../../components/Layout'],
  'web/src/features/rules/RulesPage.tsx': ['../../components/Layout'],
  'web/src/components/Layout.tsx': [],
};

describe('the one-way import rules (.dependency-cruiser.cjs)', () => {
  let fixture: string;

  beforeAll(async () => {
    fixture = await mkdtemp(join(tmpdir(), 'ctf-dependency-rules-'));
    for (const [file, imports] of Object.entries(FIXTURE)) {
      await mkdir(dirname(join(fixture, file)), { recursive: true });
      const lines = imports.map(
        (target, i) => `import * as m${i} from '${target}';\nexport const u${i} = m${i};`,
      );
      await writeFile(join(fixture, file), `${lines.join('\n')}\nexport const here = 1;\n`);
    }
  });
  afterAll(async () => {
    await rm(fixture, { recursive: true, force: true });
  });

  it('declares every server module once, the event state at the bottom', async () => {
    expect(new Set(SERVER_MODULE_ORDER).size).toBe(SERVER_MODULE_ORDER.length);
    expect(SERVER_MODULE_ORDER[0]).toBe('event-state');
    const folders = await readdir(join(root, 'server/src/modules'));
    expect([...SERVER_MODULE_ORDER].sort()).toEqual(folders.sort());
  });

  it('are drawn in docs/architecture.md as they are declared (top first)', async () => {
    const doc = await readFile(join(root, 'docs/architecture.md'), 'utf8');
    const drawing = /^ top {4}([\s\S]*?)^ bottom (\S+)/m.exec(doc);
    expect(drawing, 'the module order drawing (" top ... bottom ...")').not.toBeNull();
    const drawn = [...drawing![1]!.split('\n').map((line) => line.trim().split(/\s+/)[0]), drawing![2]];
    expect(drawn.filter((name) => name)).toEqual([...SERVER_MODULE_ORDER].reverse());
  });

  it('fail on a cycle, an upward import, a foreign repository, an undeclared module and a feature reaching another', async () => {
    const violations = await cruiseWithProjectRules(fixture, ['server/src', 'web/src']);
    // A cycle is reported once, from whichever of its files the walk reached first.
    const cycles = violations.filter((v) => v.startsWith('no-circular: '));
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toMatch(
      /^no-circular: server\/src\/modules\/teams\/teams\.(service|presenter)\.ts -> server\/src\/modules\/teams\/teams\.(presenter|service)\.ts$/,
    );
    expect(violations.filter((v) => !v.startsWith('no-circular: '))).toEqual([
      'module-declared: server/src/modules/admin/admin.service.ts -> server/src/modules/bounties/bounties.service.ts',
      'module-order:event-state: server/src/modules/event-state/event-state.service.ts -> server/src/modules/site/site.service.ts',
      'no-foreign-repo: server/src/modules/submissions/submissions.service.ts -> server/src/modules/challenges/challenges.repo.ts',
      'web-feature-isolation: web/src/features/home/HomePage.tsx -> web/src/features/rules/RulesPage.tsx',
    ]);
  }, 120_000);

  it('hold for the repository: no cycle, no upward import, no reach into another module', async () => {
    expect(await cruiseWithProjectRules(root, ['server/src', 'web/src'])).toEqual([]);
  }, 120_000);
});
