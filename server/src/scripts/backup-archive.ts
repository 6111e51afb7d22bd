import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import yauzl from 'yauzl';
import yazl from 'yazl';
import type { Config } from '../config.js';
import { KNOWN_MIGRATIONS } from '../db/migrate.js';

/**
 * One backup archive (a ZIP): manifest.json, the SQLite database as a consistent snapshot taken
 * with SQLite's online backup API while the site runs (database/ctf.sqlite), every stored upload
 * (uploads/NAME) and the generated session secret when there is one. On PostgreSQL the database
 * is left to pg_dump (docs/deploy.md) and the archive holds the uploads and the manifest.
 */
export type Storage = Pick<Config, 'dataDir' | 'uploadDir' | 'database'>;

export const BACKUP_FORMAT = 'ctf-backup';
export const BACKUP_VERSION = 1;
const DB_ENTRY = 'database/ctf.sqlite';
const SECRET_ENTRY = 'session-secret';
const UPLOADS_PREFIX = 'uploads/';
const SECRET_FILE = 'session-secret';

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  database: 'sqlite' | 'postgres';
  /** The migrations applied to the database in the archive (its schema version). */
  migrations: string[];
  uploads: { name: string; size: number; sha256: string }[];
}

export class BackupError extends Error {}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Stored uploads: plain files whose names do not begin with a dot (temporary uploads do). */
async function listUploadFiles(uploadDir: string): Promise<string[]> {
  const entries = await readdir(uploadDir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
}

/** Writes a backup archive to `file` (through a temporary file, renamed when complete). */
export async function createBackup(storage: Storage, file: string): Promise<BackupManifest> {
  const target = path.resolve(file);
  const work = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  const snapshot = `${work}.sqlite`;
  try {
    let migrations: string[] = [];
    if (storage.database.kind === 'sqlite') {
      const source = new Database(storage.database.file, { fileMustExist: true });
      try {
        // NOTE: the online backup API copies a consistent snapshot page by page while other
        // connections keep writing; what was committed before it finished is in the copy.
        await source.backup(snapshot);
      } finally {
        source.close();
      }
      const copy = new Database(snapshot, { readonly: true });
      try {
        migrations = (
          copy.prepare('select name from kysely_migration order by name').all() as { name: string }[]
        ).map((r) => r.name);
      } finally {
        copy.close();
      }
    }
    const names = await listUploadFiles(storage.uploadDir);
    const uploads = [];
    for (const name of names) {
      const full = path.join(storage.uploadDir, name);
      uploads.push({ name, size: (await stat(full)).size, sha256: await sha256Of(full) });
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date().toISOString(),
      database: storage.database.kind,
      migrations,
      uploads,
    };
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from(JSON.stringify(manifest, null, 2)), 'manifest.json');
    if (storage.database.kind === 'sqlite') zip.addFile(snapshot, DB_ENTRY);
    for (const u of uploads) zip.addFile(path.join(storage.uploadDir, u.name), `${UPLOADS_PREFIX}${u.name}`);
    const secret = path.join(storage.dataDir, SECRET_FILE);
    if (
      await stat(secret).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      zip.addFile(secret, SECRET_ENTRY);
    zip.end();
    await mkdir(path.dirname(target), { recursive: true });
    await pipeline(zip.outputStream, createWriteStream(work, { mode: 0o600 }));
    await rename(work, target);
    return manifest;
  } finally {
    await rm(work, { force: true });
    await rm(snapshot, { force: true });
  }
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, strictFileNames: true }, (err, zip) =>
      err || !zip
        ? reject(new BackupError(`Not a backup archive: ${err?.message ?? 'unreadable'}`))
        : resolve(zip),
    ),
  );
}

/** Reads every entry: the manifest into memory, the rest streamed to `place(name)` (or skipped). */
async function readArchive(
  file: string,
  place: (name: string) => string | null,
): Promise<{ manifest: BackupManifest | null; written: Map<string, string> }> {
  const zip = await openZip(file);
  const written = new Map<string, string>();
  let manifest: BackupManifest | null = null;
  await new Promise<void>((resolve, reject) => {
    zip.on('error', (err: Error) => reject(new BackupError(`Damaged or unsafe archive: ${err.message}`)));
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      const name = entry.fileName;
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream) return reject(err ?? new BackupError(`Unreadable entry ${name}`));
        if (name === 'manifest.json') {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            try {
              manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as BackupManifest;
            } catch {
              return reject(new BackupError('The manifest is not valid JSON'));
            }
            zip.readEntry();
          });
          return;
        }
        let dest: string | null;
        try {
          dest = place(name);
        } catch (placeErr) {
          stream.destroy();
          return reject(placeErr);
        }
        if (dest === null) {
          stream.resume();
          stream.on('end', () => zip.readEntry());
          return;
        }
        pipeline(stream, createWriteStream(dest, { mode: 0o600 }))
          .then(() => {
            written.set(name, dest);
            zip.readEntry();
          })
          .catch(reject);
      });
    });
    zip.readEntry();
  }).finally(() => zip.close());
  return { manifest, written };
}

/** Moves a file, copying when the two folders are on different devices (UPLOAD_DIR elsewhere). */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await copyFile(from, to);
    await rm(from, { force: true });
  }
}

/** Whether a directory is missing or holds nothing. */
async function isEmptyDir(dir: string): Promise<boolean> {
  const entries = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  return entries.length === 0;
}

/**
 * Restores an archive into DATA_DIR (and UPLOAD_DIR): refused when they hold anything unless
 * `force` (then the database and uploads are replaced). Everything is first extracted into a
 * staging folder and checked (manifest, names, sizes, checksums, schema version), then moved into
 * place, so a bad archive changes nothing.
 */
export async function restoreBackup(
  storage: Storage,
  file: string,
  options: { force?: boolean } = {},
): Promise<BackupManifest> {
  const emptyData = await isEmptyDir(storage.dataDir);
  const emptyUploads = await isEmptyDir(storage.uploadDir);
  if (!options.force && (!emptyData || !emptyUploads)) {
    throw new BackupError(
      `${!emptyData ? storage.dataDir : storage.uploadDir} is not empty: restore into an empty folder, or add --force to replace its database and uploads`,
    );
  }
  await mkdir(storage.dataDir, { recursive: true });
  const staging = path.join(storage.dataDir, `.restore-${randomBytes(6).toString('hex')}`);
  await mkdir(path.join(staging, 'uploads'), { recursive: true });
  try {
    const { manifest, written } = await readArchive(path.resolve(file), (name) => {
      if (name === DB_ENTRY) return path.join(staging, 'ctf.sqlite');
      if (name === SECRET_ENTRY) return path.join(staging, SECRET_FILE);
      if (name.startsWith(UPLOADS_PREFIX)) {
        const base = name.slice(UPLOADS_PREFIX.length);
        // Only flat, plain names: nothing can land outside the upload folder.
        if (!base || base.startsWith('.') || base !== path.basename(base) || base.includes('\\')) {
          throw new BackupError(`Unsafe file name in the archive: ${name}`);
        }
        return path.join(staging, 'uploads', base);
      }
      return null;
    });
    if (!manifest || manifest.format !== BACKUP_FORMAT)
      throw new BackupError('Not a backup archive (no manifest)');
    if (manifest.version > BACKUP_VERSION)
      throw new BackupError('The archive comes from a newer version of the site');
    const unknown = manifest.migrations.filter((m) => !KNOWN_MIGRATIONS.includes(m));
    if (unknown.length > 0) {
      throw new BackupError(
        `The database comes from a newer version of the site (migrations ${unknown.join(', ')})`,
      );
    }
    if (manifest.database !== storage.database.kind) {
      throw new BackupError(
        `The archive holds a ${manifest.database} backup; this site is configured for ${storage.database.kind}`,
      );
    }
    if (manifest.database === 'sqlite' && !written.has(DB_ENTRY))
      throw new BackupError('The archive has no database');
    for (const u of manifest.uploads) {
      const staged = written.get(`${UPLOADS_PREFIX}${u.name}`);
      if (!staged || (await sha256Of(staged)) !== u.sha256) {
        throw new BackupError(`Upload ${u.name} is missing or damaged in the archive`);
      }
    }
    // Checked: move into place.
    if (storage.database.kind === 'sqlite' && written.has(DB_ENTRY)) {
      const dbFile = storage.database.file;
      await mkdir(path.dirname(dbFile), { recursive: true });
      for (const suffix of ['-wal', '-shm', '']) await rm(`${dbFile}${suffix}`, { force: true });
      await rename(path.join(staging, 'ctf.sqlite'), dbFile);
    }
    if (written.has(SECRET_ENTRY)) {
      await rename(path.join(staging, SECRET_FILE), path.join(storage.dataDir, SECRET_FILE));
      await chmod(path.join(storage.dataDir, SECRET_FILE), 0o600);
    }
    await mkdir(storage.uploadDir, { recursive: true });
    if (options.force)
      for (const name of await listUploadFiles(storage.uploadDir))
        await rm(path.join(storage.uploadDir, name));
    for (const u of manifest.uploads) {
      await moveFile(path.join(staging, 'uploads', u.name), path.join(storage.uploadDir, u.name));
    }
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** For tests and the CLI: the manifest of an archive without restoring it. */
export async function readManifest(file: string): Promise<BackupManifest | null> {
  return (await readArchive(file, () => null)).manifest;
}
