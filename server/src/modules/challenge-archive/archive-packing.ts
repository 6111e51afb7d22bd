import path from 'node:path';
import yazl from 'yazl';
import { looksLikeZipBytes, type ArchiveFiles } from './archive-reader.js';
import type { ParsedChallenge } from './challenge-yml.js';

// What files become on the way in and out: folder names from challenge names, deterministic ZIPs.

/** The file that makes a folder of an archive a challenge. */
export const YML = 'challenge.yml';

/**
 * A name that is safe as a file or folder name: lower-case letters, digits and dashes, at most 60,
 * never empty (`fallback` then).
 */
export function slugOf(name: string, fallback = 'challenge'): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  return slug || fallback;
}

/**
 * What a challenge's `files` become on the site: ZIP archives stay as they are, each under its own
 * name (so an export imports back unchanged); otherwise all of them are packed into one ZIP named
 * after the challenge, each under its path in the challenge folder.
 */
export async function packFiles(parsed: ParsedChallenge, archive: ArchiveFiles) {
  const entries = parsed.files.map((p) => ({ path: p, content: archive.get(p)! }));
  if (entries.length === 0) return [];
  const allZips = entries.every((e) => e.path.toLowerCase().endsWith('.zip') && looksLikeZipBytes(e.content));
  if (allZips) return entries.map((e) => ({ name: path.posix.basename(e.path), content: e.content }));
  const rel = (p: string) => (parsed.folder ? p.slice(parsed.folder.length + 1) : p);
  return [
    {
      name: `${slugOf(parsed.input.name)}.zip`,
      content: await zipBuffer(entries.map((e) => ({ name: rel(e.path), content: e.content }))),
    },
  ];
}

/** A deterministic ZIP (fixed times and modes), so the same files always give the same bytes. */
export function zipBuffer(entries: readonly { name: string; content: Buffer }[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const mtime = new Date('2000-01-01T00:00:00Z');
  for (const e of entries) zip.addBuffer(e.content, e.name, { mtime, mode: 0o100644 });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}
