import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchOptions } from './results.js';

// Issue 32: `npm run archive -- DIR` on the seeded event, in a process of its own as an operator
// runs it (plain node, the built script), timed from spawn to exit, its peak RSS read by a preload.

const root = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = path.join(root, 'server/dist/scripts/archive.js');
const PRELOAD = fileURLToPath(new URL('./archive-rss.mjs', import.meta.url));
/**
 * Node's flags in `npm run archive` (package.json; bench.test.ts holds the two together). The
 * command builds the whole site in about a second and exits: V8's memory-saving mode (smaller
 * young generation, the heap kept tight) took its peak RSS from 217 to 160 MB at 0.8 -> 0.9 s for
 * the base event (bench/NOTES.md), where a server's settings are chosen for speed.
 */
export const ARCHIVE_NODE_FLAGS = ['--optimize-for-size'];
/** The archive command's script, as `npm run archive` runs it. */
export const ARCHIVE_SCRIPT = path.relative(root, SCRIPT);

export interface ArchiveRun {
  seconds: number;
  peakRssMb: number;
  pages: number;
  files: number;
  challenges: number;
  competitors: number;
  /** The folder's size in MB. */
  sizeMb: number;
}

/** The targets of issue 32 for the base event's archive. */
export const ARCHIVE_TARGETS = { seconds: 60, peakRssMb: 200 } as const;

async function folderBytes(dir: string): Promise<number> {
  const { readdir, stat } = await import('node:fs/promises');
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) total += (await stat(path.join(e.parentPath, e.name))).size;
  }
  return total;
}

/** Builds the archive of the database `env` names (the seeded event) into a fresh folder. */
export async function benchArchive(env: Record<string, string>, opts: BenchOptions): Promise<ArchiveRun> {
  const work = mkdtempSync(path.join(tmpdir(), 'ctf-bench-archive-'));
  const out = path.join(work, 'site');
  try {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [...ARCHIVE_NODE_FLAGS, '--import', PRELOAD, SCRIPT, out], {
      env: { PATH: process.env.PATH ?? '', ...env },
      // Its own folder: a developer's .env in the repository must not change what is measured.
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (code !== 0) throw new Error(`npm run archive failed (${code}): ${stderr || stdout}`);
    const rss = /bench-archive-max-rss-kb=(\d+)/.exec(stderr);
    const said =
      /(\d+) page\(s\) \((\d+) challenge\(s\), (\d+) competitor\(s\) on the board\), (\d+) file\(s\)/.exec(
        stdout,
      );
    if (!rss || !said) throw new Error(`npm run archive said: ${stdout}${stderr}`);
    const run: ArchiveRun = {
      seconds,
      peakRssMb: Number(rss[1]) / 1024,
      pages: Number(said[1]),
      challenges: Number(said[2]),
      competitors: Number(said[3]),
      files: Number(said[4]),
      sizeMb: (await folderBytes(out)) / 2 ** 20,
    };
    opts.log?.(
      `  archive: ${run.pages} pages, ${run.files} files (${run.sizeMb.toFixed(1)} MB) for ${run.competitors} competitors in ${run.seconds.toFixed(1)} s, peak RSS ${run.peakRssMb.toFixed(1)} MB`,
    );
    return run;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The report's lines: a section, and the target rows (name, measured, met). */
export function archiveSection(r: ArchiveRun): string[] {
  return [
    '',
    '### Static archive (issue 32): `npm run archive -- DIR` on the base event, SQLite',
    '',
    `- ${r.pages} pages (${r.challenges} challenges, ${r.competitors} competitors on the board) and ${r.files} files, ${r.sizeMb.toFixed(1)} MB, in ${r.seconds.toFixed(1)} s from the command's start to its exit; peak RSS ${r.peakRssMb.toFixed(1)} MB (its own process, plain node as the npm script runs it).`,
  ];
}

export function archiveChecks(r: ArchiveRun): [string, number, boolean][] {
  return [
    [
      `archive of ${r.competitors} competitors < ${ARCHIVE_TARGETS.seconds} s`,
      r.seconds,
      r.seconds < ARCHIVE_TARGETS.seconds,
    ],
    [
      `archive peak RSS < ${ARCHIVE_TARGETS.peakRssMb} MB`,
      r.peakRssMb,
      r.peakRssMb < ARCHIVE_TARGETS.peakRssMb,
    ],
  ];
}
