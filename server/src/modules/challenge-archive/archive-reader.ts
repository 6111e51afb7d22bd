import { CHALLENGE_ARCHIVE_LIMITS } from '@ctf/contract';
import { lstat, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

/**
 * Reads a challenge archive (a ZIP, or a folder for the CLI) into memory as path -> bytes, refusing
 * anything hostile before a byte of it is used: entry names that leave the archive (.., absolute,
 * backslashes), symlinks, encrypted entries, too many entries, too deep paths, and more bytes
 * than CHALLENGE_ARCHIVE_LIMITS allows, counted while inflating (an archive's declared sizes are
 * checked first, but never trusted).
 */

/** Why an archive was refused, and the entry (or archive) it concerns. */
export class ArchiveError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

/** Paths (posix, relative, no folders) -> contents. */
export type ArchiveFiles = Map<string, Buffer>;

const LIMITS = CHALLENGE_ARCHIVE_LIMITS;
const MB = 1024 * 1024;

/** A ZIP starts with a local file header, or is empty and starts with the end-of-directory record. */
export function looksLikeZipBytes(head: Buffer): boolean {
  return (
    head.length >= 4 &&
    head[0] === 0x50 &&
    head[1] === 0x4b &&
    ((head[2] === 0x03 && head[3] === 0x04) || (head[2] === 0x05 && head[3] === 0x06))
  );
}

/** Entries that archivers add and nobody means to import (macOS resource forks, Finder files). */
function isClutter(name: string): boolean {
  return name.startsWith('__MACOSX/') || path.posix.basename(name) === '.DS_Store';
}

/** The problem with an entry's path, or null when it stays inside the archive. */
export function entryPathProblem(name: string): string | null {
  const traversal = `'${name}' points outside the archive (path traversal): refused.`;
  if (name.includes('\\')) return traversal;
  if (name.includes('\0')) return `'${name.replace(/\0/g, '\\0')}' holds a NUL character: refused.`;
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return traversal;
  const parts = name.split('/');
  if (parts.includes('..')) return traversal;
  if (parts.filter((p) => p !== '').length > LIMITS.maxDepth)
    return `'${name}' is nested deeper than ${LIMITS.maxDepth} folders: refused.`;
  return null;
}

/** A path as stored in the map: no './' parts, no doubled slashes. */
function normalise(name: string): string {
  return name
    .split('/')
    .filter((p) => p !== '' && p !== '.')
    .join('/');
}

class Budget {
  private entries = 0;
  private bytes = 0;
  constructor(private readonly label: string) {}
  entry(name: string): void {
    this.entries += 1;
    if (this.entries > LIMITS.maxEntries)
      throw new ArchiveError(
        this.label,
        `The archive holds more than ${LIMITS.maxEntries} entries: refused (a ZIP bomb or the wrong folder?).`,
      );
    void name;
  }
  add(name: string, n: number): void {
    this.bytes += n;
    if (this.bytes > LIMITS.maxTotalBytes)
      throw new ArchiveError(
        name,
        `The archive unpacks to more than ${LIMITS.maxTotalBytes / MB} MB: refused (a ZIP bomb?).`,
      );
  }
}

/**
 * An entry past its own limit, refused before it is inflated (its declared size; yauzl stops one
 * that inflates to more): a challenge.yml past maxYamlBytes, any other file past maxEntryBytes.
 */
function entrySizeProblem(name: string, size: number): ArchiveError | null {
  if (path.posix.basename(name) === 'challenge.yml' && size > LIMITS.maxYamlBytes)
    return new ArchiveError(name, `challenge.yml is larger than ${LIMITS.maxYamlBytes / 1024} KB: refused.`);
  if (size > LIMITS.maxEntryBytes)
    return new ArchiveError(
      name,
      `'${name}' unpacks to more than ${LIMITS.maxEntryBytes / MB} MB: refused (a file that large goes through the Upload tab).`,
    );
  return null;
}

function openZip(buffer: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      buffer,
      { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: true },
      (err, zip) => (err ? reject(err) : resolve(zip)),
    );
  });
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream)));
  });
}

/** yauzl's own name checks, said the way ours are. */
function translateZipError(err: Error, label: string): ArchiveError {
  const m = /^(?:invalid relative path|absolute path|invalid characters in fileName): (.*)$/.exec(
    err.message,
  );
  if (m) return new ArchiveError(m[1]!, entryPathProblem(m[1]!) ?? `'${m[1]}' is not a safe path: refused.`);
  if (/^too (many|few) bytes in the stream/.test(err.message))
    return new ArchiveError(
      label,
      `An entry inflates to a size other than the one it declares: refused (a ZIP bomb?).`,
    );
  return new ArchiveError(label, `The ZIP archive is damaged: ${err.message}.`);
}

/**
 * Reads every entry of a ZIP held in memory (the upload was already size-checked), in two walks.
 * The first reads only the central directory and refuses the archive for anything its headers
 * already say (names, links, encryption, entry count, each entry's size and their sum) before a
 * byte is inflated, so a ZIP bomb whose entries add up past the limit costs no memory at all. The
 * second inflates each entry, counting as it goes and checking it against its declared size
 * (yauzl's validateEntrySizes): what it holds is bounded by the sizes the first walk accepted.
 */
export async function readZipArchive(buffer: Buffer, label: string): Promise<ArchiveFiles> {
  if (!looksLikeZipBytes(buffer.subarray(0, 4))) {
    throw new ArchiveError(label, 'The file is not a ZIP archive: upload a .zip of challenge folders.');
  }
  await withZip(buffer, label, (zip) => walkEntries(zip, label, null));
  const files: ArchiveFiles = new Map();
  await withZip(buffer, label, (zip) => walkEntries(zip, label, files));
  return files;
}

async function withZip(buffer: Buffer, label: string, use: (zip: yauzl.ZipFile) => Promise<void>) {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(buffer);
  } catch (err) {
    throw translateZipError(err as Error, label);
  }
  try {
    if (zip.entryCount > LIMITS.maxEntries) {
      throw new ArchiveError(
        label,
        `The archive holds ${zip.entryCount} entries, more than ${LIMITS.maxEntries}: refused (a ZIP bomb or the wrong folder?).`,
      );
    }
    await use(zip);
  } finally {
    zip.close();
  }
}

/**
 * Walks the entries: every header check, then (when `files` is given) each entry inflated into
 * it. Without `files`, nothing is inflated: the central directory's walk.
 */
function walkEntries(zip: yauzl.ZipFile, label: string, files: ArchiveFiles | null): Promise<void> {
  const budget = new Budget(label);
  const seen = new Set<string>();
  let declared = 0;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      reject(err instanceof ArchiveError ? err : translateZipError(err as Error, label));
    };
    zip.on('error', fail);
    zip.on('end', () => {
      if (settled) return;
      settled = true;
      resolve();
    });
    zip.on('entry', (entry: yauzl.Entry) => {
      void (async () => {
        const name = entry.fileName;
        budget.entry(name);
        const problem = entryPathProblem(name);
        if (problem) throw new ArchiveError(name, problem);
        // Unix mode bits live in the high half of the external attributes.
        const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
        if (mode === 0o120000) throw new ArchiveError(name, `'${name}' is a symbolic link: refused.`);
        if (name.endsWith('/')) {
          zip.readEntry();
          return;
        }
        if (entry.isEncrypted()) throw new ArchiveError(name, `'${name}' is encrypted: refused.`);
        declared += entry.uncompressedSize;
        if (declared > LIMITS.maxTotalBytes)
          throw new ArchiveError(
            name,
            `The archive unpacks to more than ${LIMITS.maxTotalBytes / MB} MB: refused (a ZIP bomb?).`,
          );
        const key = normalise(name);
        if (seen.has(key)) throw new ArchiveError(name, `'${name}' appears twice in the archive.`);
        seen.add(key);
        const tooLarge = entrySizeProblem(name, entry.uncompressedSize);
        if (tooLarge) throw tooLarge;
        if (files) {
          const content = await inflateEntry(zip, entry, name, budget);
          if (!isClutter(key)) files.set(key, content);
        }
        zip.readEntry();
      })().catch(fail);
    });
    zip.readEntry();
  });
}

/** One entry inflated into a buffer of its declared size, counted as it inflates. */
async function inflateEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, name: string, budget: Budget) {
  const stream = await openEntry(zip, entry);
  // NOTE: one buffer of the declared size, filled as the entry inflates (yauzl checks the
  // declared size against what comes out): held once, not as chunks plus their copy.
  const content = Buffer.allocUnsafe(entry.uncompressedSize);
  let filled = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      // Counted as it inflates: a lying size header cannot get past the limit.
      budget.add(name, chunk.length);
      if (filled + chunk.length > content.length)
        throw translateZipError(new Error('too many bytes in the stream'), name);
      chunk.copy(content, filled);
      filled += chunk.length;
    }
  } catch (err) {
    stream.destroy();
    throw err instanceof ArchiveError ? err : translateZipError(err as Error, name);
  }
  if (filled !== content.length) throw translateZipError(new Error('too few bytes in the stream'), name);
  return content;
}

/** Reads a ZIP file or a folder of challenge folders from disk (the CLI). */
export async function readArchivePath(target: string): Promise<ArchiveFiles> {
  let info;
  try {
    info = await lstat(target);
  } catch {
    throw new ArchiveError(target, `No such file or folder: ${target}`);
  }
  if (info.isSymbolicLink()) throw new ArchiveError(target, `'${target}' is a symbolic link: refused.`);
  if (info.isFile()) {
    if (info.size > LIMITS.maxArchiveBytes)
      throw new ArchiveError(
        target,
        `The archive is larger than ${LIMITS.maxArchiveBytes / MB} MB: refused.`,
      );
    return readZipArchive(await readFile(target), path.basename(target));
  }
  if (!info.isDirectory()) throw new ArchiveError(target, `'${target}' is neither a ZIP file nor a folder.`);
  return readFolder(target);
}

async function readFolder(root: string): Promise<ArchiveFiles> {
  const files: ArchiveFiles = new Map();
  const budget = new Budget(root);
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(root, rel), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const name = rel ? `${rel}/${e.name}` : e.name;
      budget.entry(name);
      const problem = entryPathProblem(name);
      if (problem) throw new ArchiveError(name, problem);
      if (e.isSymbolicLink()) throw new ArchiveError(name, `'${name}' is a symbolic link: refused.`);
      if (e.isDirectory()) {
        if (e.name === '.git') continue;
        await walk(name);
      } else if (e.isFile()) {
        const full = path.join(root, name);
        const { size } = await lstat(full);
        const tooLarge = entrySizeProblem(name, size);
        if (tooLarge) throw tooLarge;
        budget.add(name, size);
        if (!isClutter(name)) files.set(name, await readFile(full));
      } else {
        throw new ArchiveError(name, `'${name}' is not a regular file: refused.`);
      }
    }
  };
  await walk('');
  return files;
}
