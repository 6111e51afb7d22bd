import type { AppContext } from '../../context.js';
import { groupBy } from '../../lib/group-by.js';
import { ARCHIVE_LINK_REL } from '../../lib/sanitize-html.js';
import {
  publishedWriteups,
  readWriteupFile,
  solutionsForArchive,
  type PublishedWriteupEntry,
} from '../writeups/writeups.service.js';
import { esc, relative, timeTag, urlPart } from './archive-html.js';
import type { ArchiveSink } from './archive-sink.js';

/**
 * What a challenge page adds once the event has ended (issue 32): its official solution when one
 * is visible to everyone after the end ('after_end' only: the archive is public) and its published writeups,
 * read through the writeups module's read functions.
 */

export interface Solution {
  html: string;
  files: string[];
}

export interface Addenda {
  solutions: ReadonlyMap<number, Solution>;
  writeups: ReadonlyMap<number, readonly PublishedWriteupEntry[]>;
}

export const NO_ADDENDA: Addenda = { solutions: new Map(), writeups: new Map() };

/** The solutions and published writeups of these challenges. */
export async function readAddenda(ctx: AppContext, challengeIds: readonly number[]): Promise<Addenda> {
  const ids = new Set(challengeIds);
  const [solutions, writeups] = await Promise.all([
    solutionsForArchive(ctx),
    challengeIds.length === 0 ? Promise.resolve([]) : publishedWriteups(ctx, challengeIds),
  ]);
  return {
    solutions: new Map(
      solutions
        .filter((s) => ids.has(s.challengeId))
        .map((s) => [s.challengeId, { html: s.html, files: s.files.map((f) => f.name) }]),
    ),
    writeups: groupBy(
      writeups.filter((w) => ids.has(w.challengeId)),
      (w) => w.challengeId,
      (w) => w,
    ),
  };
}

/** A writeup file's name inside the archive: its id, and its name reduced to safe characters. */
export function writeupPath(w: PublishedWriteupEntry): string {
  const name = (w.file?.name ?? 'writeup')
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '')
    .slice(0, 80);
  const ext = w.file?.contentType === 'application/pdf' ? '.pdf' : '.md';
  return `writeups/${w.id}-${name.toLowerCase().endsWith(ext) ? name : `${name || 'writeup'}${ext}`}`;
}

/** Writes a published writeup's file into the archive; false when it is gone. */
export async function writeWriteupFile(
  ctx: AppContext,
  sink: ArchiveSink,
  w: PublishedWriteupEntry,
): Promise<boolean> {
  const file = await readWriteupFile(ctx, w.id);
  if (!file) return false;
  await sink.write(writeupPath(w), [file.bytes]);
  return true;
}

/** The solution section of a challenge page (archive-safe HTML already). */
export function solutionSection(page: string, html: string, files: readonly string[]): string {
  const list =
    files.length === 0
      ? ''
      : `<ul>${files.map((f) => `<li><a href="${esc(relative(page, `files/${urlPart(f)}`))}">${esc(f)}</a></li>`).join('')}</ul>\n`;
  return `<h2>Solution</h2>\n<div class="solution">${html}</div>\n${list}`;
}

/** The writeups section: each competitor's link (out, plain) or file (in the archive). */
export function writeupsSection(
  page: string,
  writeups: readonly { entry: PublishedWriteupEntry; archived: boolean }[],
): string {
  if (writeups.length === 0) return '';
  const items = writeups.map(({ entry: w, archived }) => {
    let what: string;
    if (w.url !== undefined) {
      what = w.url.startsWith('https://')
        ? `<a href="${esc(w.url)}" rel="${ARCHIVE_LINK_REL}">${esc(w.url)}</a>`
        : esc(w.url);
    } else if (archived) {
      const kind = w.file!.contentType === 'application/pdf' ? 'PDF' : 'Markdown';
      what = `<a href="${esc(relative(page, writeupPath(w)))}">${esc(w.file!.name)}</a> (${kind}, ${Math.max(1, Math.round(w.file!.size / 1024))} kB)`;
    } else {
      what = `${esc(w.file!.name)} <span class="muted">(the file is missing)</span>`;
    }
    return `<li>${esc(w.competitorName)}: ${what}, handed in ${timeTag(w.submittedAt)}</li>`;
  });
  return `<h2>Writeups</h2>\n<ul class="writeups">${items.join('')}</ul>\n`;
}
