import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

/**
 * Where the archive's builder writes (issue 32): the same pages and files go to a folder (the
 * CLI) or into a ZIP streamed to the admin's download. Each entry is written whole before the next
 * starts, from a stream of chunks, so nothing holds more than a chunk of a page or a file.
 */
export interface ArchiveSink {
  /** Writes one entry at `name` (a relative POSIX path inside the archive) from these chunks. */
  write(name: string, content: Iterable<string | Buffer> | AsyncIterable<string | Buffer>): Promise<void>;
}

/** A safe relative entry name: no absolute path, no `..`, no empty part. */
function checkedName(name: string): string {
  const parts = name.split('/');
  if (name.startsWith('/') || parts.some((p) => p === '' || p === '.' || p === '..'))
    throw new Error(`archive: refusing the entry name ${JSON.stringify(name)}`);
  return name;
}

/** Writes every entry into `root` (which exists), creating folders as they come. */
export function directorySink(root: string): ArchiveSink & { written: string[] } {
  const base = path.resolve(root);
  const written: string[] = [];
  return {
    written,
    async write(name, content) {
      const target = path.resolve(base, checkedName(name));
      if (!target.startsWith(`${base}${path.sep}`))
        throw new Error(`archive: refusing to write outside ${base}`);
      await mkdir(path.dirname(target), { recursive: true });
      await pipeline(Readable.from(content), createWriteStream(target, { flags: 'wx' }));
      written.push(name);
    },
  };
}

/**
 * A ZIP written as it goes, through yazl like the site's other ZIP exports
 * (challenge-archive's): `output` is the archive's bytes, to pipe to a download; each write
 * resolves once yazl has read its entry, so the builder waits for a slow reader. `end` closes the
 * archive; `fail` aborts it (the download then ends broken rather than looking complete).
 */
export function zipSink(): ArchiveSink & { output: Readable; end(): void; fail(err: Error): void } {
  const zip = new yazl.ZipFile();
  const output = zip.outputStream as Readable;
  const mtime = new Date('2000-01-01T00:00:00Z');
  // A download closed early (the admin left) ends the build: the entry waiting for a reader, and
  // every later write, fail instead of waiting for ever.
  let closed: Promise<never> | null = null;
  const whenClosed = new Promise<never>((_, reject) => {
    output.once('close', () => reject(new Error('archive: the ZIP stream was closed')));
  });
  whenClosed.catch(() => {});
  return {
    output,
    async write(name, content) {
      if (output.destroyed) throw new Error('archive: the ZIP stream was closed');
      const entry = new PassThrough();
      const done = new Promise<void>((resolve, reject) => {
        entry.once('end', resolve);
        entry.once('error', reject);
      });
      zip.addReadStream(entry, checkedName(name), { mtime, mode: 0o100644, compress: true });
      closed ??= whenClosed;
      try {
        await Promise.race([
          Promise.all([pipeline(Readable.from(content), entry as Writable), done]),
          closed,
        ]);
      } catch (err) {
        entry.destroy();
        throw err;
      }
    },
    end: () => zip.end(),
    fail: (err) => output.destroy(err),
  };
}
