import type { ImportResult } from '@ctf/contract';
import { readdir } from 'node:fs/promises';
import type { AppContext } from '../context.js';
import { exportChallengesTo } from '../modules/challenge-archive/archive-export.js';
import { importChallengePath } from '../modules/challenge-archive/archive.service.js';
import { isEntryPoint, withApp } from './cli.js';
import { TOKEN_VARIABLE, importRemote } from './remote-import.js';

const USAGE =
  'Usage: npm run challenges -- import PATH [--dry-run]\n' +
  `       npm run challenges -- import PATH --remote URL [--dry-run]   (token in ${TOKEN_VARIABLE})\n` +
  '       npm run challenges -- export DIR\n';

/** The import's report as lines: what was (or would be) done, then warnings and errors with file:line. */
export function formatImportResult(result: ImportResult, dryRun = false): string {
  const lines = [result.message];
  const would = dryRun ? 'would be ' : '';
  if (result.created.length) lines.push(`${would}created: ${result.created.join(', ')}`);
  if (result.updated.length) lines.push(`${would}updated: ${result.updated.join(', ')}`);
  const where = (i: { file: string; line: number | null }) =>
    `${i.file || '(archive)'}${i.line ? `:${i.line}` : ''}`;
  for (const w of result.warnings) lines.push(`warning ${where(w)}: ${w.message}`);
  for (const e of result.errors) lines.push(`error ${where(e)}: ${e.message}`);
  return `${lines.join('\n')}\n`;
}

/** Runs one command against the configured site; answers the exit code. */
export async function runChallengesCommand(
  ctx: AppContext,
  args: readonly string[],
): Promise<{ code: number; out: string }> {
  const [command, target, ...rest] = args;
  if (command === 'import' && target && rest.every((a) => a === '--dry-run')) {
    const dryRun = rest.includes('--dry-run');
    const result = await importChallengePath(ctx, target, { dryRun });
    return { code: result.errors.length > 0 ? 1 : 0, out: formatImportResult(result, dryRun) };
  }
  if (command === 'export' && target && rest.length === 0) {
    const existing = await readdir(target).catch(() => []);
    if (existing.length > 0)
      return { code: 1, out: `${target} is not empty: export into a new or empty folder.\n` };
    const count = await exportChallengesTo(ctx, target);
    return { code: 0, out: `Exported ${count} challenge(s) to ${target}.\n` };
  }
  return { code: 2, out: USAGE };
}

/**
 * `import PATH --remote URL [--dry-run]`: the site at URL imports PATH (remote-import.ts); null
 * when the arguments ask for something else.
 */
export function remoteImportCommand(
  args: readonly string[],
  token: string | undefined,
): Promise<{ code: number; out: string }> | null {
  const [command, target, ...rest] = args;
  const at = rest.indexOf('--remote');
  if (command !== 'import' || !target || at === -1) return null;
  const site = rest[at + 1];
  const others = rest.filter((_, i) => i !== at && i !== at + 1);
  if (!site || !others.every((a) => a === '--dry-run')) return Promise.resolve({ code: 2, out: USAGE });
  return importRemote(target, site, token, others.includes('--dry-run'), formatImportResult);
}

/**
 * `npm run challenges -- import PATH [--dry-run] [--remote URL]` / `export DIR` (README,
 * docs/challenge-archives.md). A remote import needs no database: it only talks to the site.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  // The author's token, read here: it is this command's input, not the server's configuration.
  const remote = remoteImportCommand(args, process.env[TOKEN_VARIABLE]);
  const { code, out } = await (remote ?? withApp((ctx) => runChallengesCommand(ctx, args)));
  (code === 0 ? process.stdout : process.stderr).write(out);
  process.exitCode = code;
}

if (isEntryPoint(import.meta.url)) {
  void main();
}
