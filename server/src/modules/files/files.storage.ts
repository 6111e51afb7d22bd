import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * The upload folder on disk. Only this file touches it. Every path it builds comes from a name the
 * files table already holds, and is checked to stay inside the folder (docs/product.md §14).
 */

/** Temporary uploads start with a dot, which no stored name may, so the two can never collide. */
const TEMP_PREFIX = '.upload-';
const TEMP_SUFFIX = '.part';
/** How many leading bytes are kept to check the file's signature. */
const HEAD_BYTES = 8;

export class TooLargeError extends Error {}

export interface TempUpload {
  tempPath: string;
  size: number;
  /** The first bytes of the file (fewer when it is shorter). */
  head: Buffer;
}

/** The absolute path of a stored name, or null when it would leave the upload folder. */
export function storedPath(uploadDir: string, name: string): string | null {
  const root = path.resolve(uploadDir);
  const full = path.resolve(root, name);
  if (path.dirname(full) !== root || path.basename(full) !== name) return null;
  return full;
}

/**
 * Streams an upload into a temporary file in the upload folder (never whole in memory), counting
 * bytes and keeping the first few. Past maxBytes it stops, removes the temporary file and throws
 * TooLargeError. `truncated` reports a limit the stream's producer enforced itself.
 */
export async function receiveToTemp(
  uploadDir: string,
  source: Readable,
  maxBytes: number,
  truncated: () => boolean,
): Promise<TempUpload> {
  await mkdir(uploadDir, { recursive: true });
  const tempPath = path.join(uploadDir, `${TEMP_PREFIX}${randomBytes(12).toString('hex')}${TEMP_SUFFIX}`);
  let size = 0;
  const headChunks: Buffer[] = [];
  let headLength = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) {
        callback(new TooLargeError());
        return;
      }
      if (headLength < HEAD_BYTES) {
        headChunks.push(chunk.subarray(0, HEAD_BYTES - headLength));
        headLength += Math.min(chunk.length, HEAD_BYTES - headLength);
      }
      callback(null, chunk);
    },
  });
  try {
    await pipeline(source, counter, createWriteStream(tempPath, { flags: 'wx', mode: 0o644 }));
    if (truncated()) throw new TooLargeError();
  } catch (err) {
    await rm(tempPath, { force: true });
    // Drain what is left of the part so the request can finish and the answer be read.
    source.resume();
    throw err;
  }
  return { tempPath, size, head: Buffer.concat(headChunks) };
}

/** Moves a checked temporary file to its stored name in one atomic step. */
export async function commitTemp(uploadDir: string, temp: TempUpload, name: string): Promise<void> {
  const target = storedPath(uploadDir, name);
  if (!target) throw new Error('stored name escapes the upload folder');
  await rename(temp.tempPath, target);
}

export async function discardTemp(temp: TempUpload): Promise<void> {
  await rm(temp.tempPath, { force: true });
}

/** Removes a stored file; a file already gone is fine (the database row is what counts). */
export async function removeStored(uploadDir: string, name: string): Promise<void> {
  const target = storedPath(uploadDir, name);
  if (target) await rm(target, { force: true });
}

/** An open stored file with its size and time, or null when it is not on disk. */
export async function openStored(
  uploadDir: string,
  name: string,
): Promise<{ handle: FileHandle; size: number; modified: Date } | null> {
  const target = storedPath(uploadDir, name);
  if (!target) return null;
  let handle: FileHandle;
  try {
    handle = await open(target, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close();
    return null;
  }
  return { handle, size: info.size, modified: info.mtime };
}

/**
 * Removes temporary files a crashed process left behind. Only old ones: another process sharing
 * the folder may be receiving an upload right now.
 */
export async function removeStaleTemps(uploadDir: string, olderThanMs: number, now: number): Promise<void> {
  let names: string[];
  try {
    names = await readdir(uploadDir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX) || !name.endsWith(TEMP_SUFFIX)) continue;
    const full = path.join(uploadDir, name);
    try {
      const info = await stat(full);
      if (now - info.mtimeMs > olderThanMs) await rm(full, { force: true });
    } catch {
      // Gone already, or another process is cleaning too.
    }
  }
}

/**
 * Moves a stored file out of the way under a temporary name (an import replacing it), so the
 * replacement can be undone; a crash leaves a temporary file that removeStaleTemps clears.
 */
export async function moveAside(uploadDir: string, name: string): Promise<string | null> {
  const target = storedPath(uploadDir, name);
  if (!target) throw new Error('stored name escapes the upload folder');
  const aside = path.join(uploadDir, `${TEMP_PREFIX}${randomBytes(12).toString('hex')}${TEMP_SUFFIX}`);
  try {
    await rename(target, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return aside;
}

/** Puts a file moved aside back under its stored name. */
export async function putBack(uploadDir: string, aside: string, name: string): Promise<void> {
  const target = storedPath(uploadDir, name);
  if (!target) throw new Error('stored name escapes the upload folder');
  await rename(aside, target);
}

/** The bytes of a stored file, or null when it is not on disk. */
export async function readStored(uploadDir: string, name: string): Promise<Buffer | null> {
  const target = storedPath(uploadDir, name);
  if (!target) return null;
  try {
    return await readFile(target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
