import { MESSAGES, adminApi } from '@ctf/contract';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/connect.js';
import type { UserRow } from '../../db/schema.js';
import { DomainError, badInput, conflict, notFound } from '../../lib/errors.js';
import { SYSTEM_ACTOR, recordAudit, type AuditActor } from '../audit/audit.service.js';
import { isSiteActive } from '../site/site.service.js';
import { canSeeChallengeContent } from '../challenges/public-challenges.js';
import {
  deleteFileById,
  findFileByName,
  findFileNameLike,
  insertFile,
  activeChallengesOfFile,
  listFileNames,
} from './files.repo.js';
import {
  TooLargeError,
  commitTemp,
  discardTemp,
  openStored,
  receiveToTemp,
  removeStored,
} from './files.storage.js';

/** A ZIP starts with a local file header, or is empty and starts with the end-of-directory record. */
const ZIP_SIGNATURES = [Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from([0x50, 0x4b, 0x05, 0x06])];

function hasZipSignature(head: Buffer): boolean {
  return ZIP_SIGNATURES.some((sig) => head.length >= sig.length && head.subarray(0, sig.length).equals(sig));
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} bytes`;
}

export function tooLarge(ctx: AppContext): DomainError {
  return new DomainError(
    'too_large',
    `The file is too large: the limit is ${formatBytes(ctx.config.uploadMaxBytes)}.`,
  );
}

/** One uploaded file as the multipart parser hands it over, still streaming. */
export interface IncomingFile {
  filename: string;
  mimetype: string;
  stream: Readable;
  /** Whether the parser cut the file at its size limit. */
  truncated: () => boolean;
}

/**
 * Refuses a name that cannot be stored, before a byte is received: unsafe characters, path parts,
 * not a ZIP by name or type, or already taken (names are unique ignoring case).
 */
async function checkNewName(ctx: AppContext, file: IncomingFile): Promise<string> {
  const name = file.filename;
  const problem = adminApi.fileNameProblem(name);
  if (problem) throw badInput(problem);
  if (!adminApi.looksLikeZip(name, file.mimetype))
    throw badInput(`Only ZIP files are allowed: '${name}' is not a .zip file.`);
  const existing = await findFileNameLike(ctx.database.db, name);
  if (existing)
    throw conflict(`A file named '${existing}' already exists. Delete it first or rename your file.`);
  return name;
}

/**
 * Stores one uploaded ZIP (DESIGN.md §6): checks the name, streams the bytes to a temporary file
 * (never whole in memory) up to UPLOAD_MAX_BYTES, checks the ZIP signature, claims the name in the
 * database (unique, so two racing uploads of one name cannot both win) and only then renames the
 * file into place.
 */
export async function saveUpload(
  ctx: AppContext,
  file: IncomingFile,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<{ name: string; size: number }> {
  const name = await checkNewName(ctx, file);
  const uploadDir = ctx.config.uploadDir;
  let temp;
  try {
    temp = await receiveToTemp(uploadDir, file.stream, ctx.config.uploadMaxBytes, file.truncated);
  } catch (err) {
    if (err instanceof TooLargeError) throw tooLarge(ctx);
    throw err;
  }
  try {
    if (temp.size === 0) throw badInput(`The file '${name}' is empty.`);
    if (!hasZipSignature(temp.head)) {
      throw badInput(`Only ZIP files are allowed: '${name}' is not a ZIP archive.`);
    }
    let id: number;
    try {
      const at = ctx.clock.now();
      const size = temp.size;
      id = await ctx.database.transaction(async (trx) => {
        const fileId = await insertFile(trx, { name, size, created_at: at.toISOString() });
        await recordAudit(trx, {
          actor,
          action: 'file.upload',
          target: `file '${name}'`,
          details: { size },
          at,
        });
        return fileId;
      });
    } catch (err) {
      if (isUniqueViolation(err))
        throw conflict(`A file named '${name}' already exists. Delete it first or rename your file.`);
      throw err;
    }
    try {
      await commitTemp(uploadDir, temp, name);
    } catch (err) {
      await deleteFileById(ctx.database.db, id);
      throw err;
    }
  } catch (err) {
    await discardTemp(temp);
    throw err;
  }
  ctx.bus.publish('files');
  return { name, size: temp.size };
}

/** Stored file names, alphabetically (SPEC.md §3 Upload). */
export async function listUploads(ctx: AppContext): Promise<string[]> {
  return listFileNames(ctx.database.db);
}

/** Deletes a stored file; challenges that listed it lose it with the row (cascade). */
export async function deleteUpload(
  ctx: AppContext,
  name: string,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<void> {
  const at = ctx.clock.now();
  const row = await ctx.database.transaction(async (trx) => {
    const found = await findFileByName(trx, name);
    if (!found || !(await deleteFileById(trx, found.id))) throw notFound(`No file named '${name}'.`);
    await recordAudit(trx, { actor, action: 'file.delete', target: `file '${found.name}'`, at });
    return found;
  });
  // The row is gone first: a crash here leaves an unlisted file that the next upload of the name replaces.
  await removeStored(ctx.config.uploadDir, row.name);
  ctx.bus.publish('files');
  ctx.bus.publish('challenges');
}

export interface Download {
  name: string;
  handle: FileHandle;
  size: number;
  modified: Date;
}

/**
 * Opens a stored file for a download. Only an exact stored name is looked up, and only that
 * looked-up name reaches the disk. Admins may fetch any stored file; participants only a file of an
 * active, released challenge whose prerequisites they solved, while the site is active.
 */
export async function openDownload(ctx: AppContext, user: UserRow, name: string): Promise<Download> {
  const missing = () => notFound('File not found');
  if (adminApi.fileNameProblem(name)) throw missing();
  const row = await findFileByName(ctx.database.db, name);
  if (!row) throw missing();
  if (user.is_admin !== 1) {
    if (!(await isSiteActive(ctx))) throw new DomainError('site_inactive', MESSAGES.siteInactive);
    // A file of a challenge not released yet, or locked behind prerequisites, does not exist.
    let visible = false;
    for (const id of await activeChallengesOfFile(ctx.database.db, row.id)) {
      if (await canSeeChallengeContent(ctx, user, id)) {
        visible = true;
        break;
      }
    }
    if (!visible) throw missing();
  }
  const opened = await openStored(ctx.config.uploadDir, row.name);
  if (!opened) throw missing();
  return { name: row.name, ...opened };
}
