import { MESSAGES, adminApi } from '@ctf/contract';
import { rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/connect.js';
import type { Executor, UserRow } from '../../db/schema.js';
import { DomainError, badInput, conflict, forbidden, notFound } from '../../lib/errors.js';
import { SYSTEM_ACTOR, recordAudit, type AuditActor } from '../audit/audit.service.js';
import { isSiteActive } from '../event-state/event-state.service.js';
import {
  NOT_OWNER,
  canSeeChallengeContent,
  filterWorkableFiles,
  mayWorkOnFiles,
  maySeeSolutionFile,
  ownsAChallengeOfFile,
  type ChallengeActor,
} from '../challenges/challenges.service.js';
import {
  deleteFileById,
  findFileByName,
  findFileNameLike,
  insertFile,
  activeChallengesOfFile,
  challengesOfFile,
  findFileRowLike,
  listFileRows,
  setFileSize,
} from './files.repo.js';
import {
  TooLargeError,
  commitTemp,
  discardTemp,
  moveAside,
  openStored,
  putBack,
  readStored,
  receiveToTemp,
  removeStored,
  type TempUpload,
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
 * Stores one uploaded ZIP (docs/product.md §14): checks the name, streams the bytes to a temporary file
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

/**
 * Stored file names, alphabetically (docs/product.md §3 Upload): an author sees the files no
 * challenge uses and those only its own challenges use.
 */
export async function listUploads(ctx: AppContext, viewer: ChallengeActor = SYSTEM_ACTOR): Promise<string[]> {
  const rows = await listFileRows(ctx.database.db);
  return (await filterWorkableFiles(ctx.database.db, viewer, rows)).map((r) => r.name);
}

/** Deletes a stored file; challenges that listed it lose it with the row (cascade). */
export async function deleteUpload(
  ctx: AppContext,
  name: string,
  actor: ChallengeActor = SYSTEM_ACTOR,
): Promise<void> {
  const at = ctx.clock.now();
  const row = await ctx.database.transaction(async (trx) => {
    const found = await findFileByName(trx, name);
    if (!found) throw notFound(`No file named '${name}'.`);
    if (!(await mayWorkOnFiles(trx, actor, [found.id]))) throw forbidden(NOT_OWNER);
    if (!(await deleteFileById(trx, found.id))) throw notFound(`No file named '${name}'.`);
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
 * active, released challenge whose prerequisites they solved, or of a solution they may see,
 * while the site is active.
 */
export async function openDownload(ctx: AppContext, user: UserRow, name: string): Promise<Download> {
  const missing = () => notFound('File not found');
  if (adminApi.fileNameProblem(name)) throw missing();
  const row = await findFileByName(ctx.database.db, name);
  if (!row) throw missing();
  // An owner fetches its own challenge's files whatever their state (an admin: every file).
  if (!(await ownsAChallengeOfFile(ctx.database.db, user, row.id))) {
    if (!(await isSiteActive(ctx))) throw new DomainError('site_inactive', MESSAGES.siteInactive);
    // A file of a challenge not released yet, or locked behind prerequisites, does not exist.
    let visible = false;
    for (const id of await activeChallengesOfFile(ctx.database.db, row.id)) {
      if (await canSeeChallengeContent(ctx, user, id)) {
        visible = true;
        break;
      }
    }
    // A solution's file follows its solution's visibility (issue 32).
    if (!visible && !(await maySeeSolutionFile(ctx, user, row.id))) throw missing();
  }
  const opened = await openStored(ctx.config.uploadDir, row.name);
  if (!opened) throw missing();
  return { name: row.name, ...opened };
}

/**
 * Files an import writes inside its one transaction (challenge.yml archives, issue 17). Rows are
 * written with the transaction; bytes go to temporary files, and only at the end of the
 * transaction's work (publish) are they renamed into place, a replaced file moved aside first.
 * A failed transaction is undone on disk too (undo), so nothing is left behind; after the commit,
 * finish() drops what was moved aside. A dry run writes rows (rolled back) and no bytes.
 */
export class ImportedFiles {
  private readonly pending: { temp: TempUpload | null; name: string; replaces: boolean }[] = [];
  private readonly placed: { name: string; aside: string | null }[] = [];

  constructor(
    private readonly ctx: AppContext,
    private readonly dryRun: boolean,
  ) {}

  /**
   * Claims a stored name for these bytes. The same bytes already stored: nothing to do. Another
   * file of that name is replaced only when no challenge but `ownerId` uses it; else 409.
   */
  async stage(
    trx: Executor,
    file: { name: string; content: Buffer },
    ownerId: number | null,
    actor: AuditActor,
    at: Date,
  ): Promise<void> {
    const { name, content } = file;
    const problem = adminApi.fileNameProblem(name);
    if (problem) throw badInput(`File '${name}': ${problem}`);
    if (content.length > this.ctx.config.uploadMaxBytes) throw tooLarge(this.ctx);
    const existing = await findFileRowLike(trx, name);
    let replaces = false;
    if (existing) {
      if (existing.name !== name)
        throw conflict(
          `A file named '${existing.name}' already exists. Delete it first or rename your file.`,
        );
      const stored = await readStored(this.ctx.config.uploadDir, name);
      if (stored?.equals(content)) return;
      const users = await challengesOfFile(trx, existing.id);
      // Replaced only when it is this challenge's own file (a re-import of an edited challenge).
      if (users.length === 0 || users.some((id) => id !== ownerId)) {
        throw conflict(
          `A different file named '${name}' is already stored${users.length > 0 ? ' for another challenge' : ''}. Delete it first or rename your file.`,
        );
      }
      await setFileSize(trx, existing.id, content.length);
      replaces = true;
    } else {
      await insertFile(trx, { name, size: content.length, created_at: at.toISOString() });
    }
    await recordAudit(trx, {
      actor,
      action: 'file.upload',
      target: `file '${name}'`,
      details: { size: content.length, imported: true, ...(replaces && { replaced: true }) },
      at,
    });
    const temp = this.dryRun
      ? null
      : await receiveToTemp(this.ctx.config.uploadDir, Readable.from([content]), Infinity, () => false);
    this.pending.push({ temp, name, replaces });
  }

  /** Renames every staged file into place (the last step inside the transaction). */
  async publish(): Promise<void> {
    const dir = this.ctx.config.uploadDir;
    for (const p of this.pending) {
      if (!p.temp) continue;
      const aside = p.replaces ? await moveAside(dir, p.name) : null;
      this.placed.push({ name: p.name, aside });
      await commitTemp(dir, p.temp, p.name);
      p.temp = null;
    }
  }

  /** After a failed transaction: takes placed files away, puts replaced ones back, drops temps. */
  async undo(): Promise<void> {
    const dir = this.ctx.config.uploadDir;
    for (const p of this.placed.reverse()) {
      await removeStored(dir, p.name);
      if (p.aside) await putBack(dir, p.aside, p.name);
    }
    this.placed.length = 0;
    await this.finish();
  }

  /** After the commit (or undo): removes what was moved aside and any temporary file left. */
  async finish(): Promise<void> {
    for (const p of this.placed) if (p.aside) await rm(p.aside, { force: true });
    for (const p of this.pending) if (p.temp) await discardTemp(p.temp);
  }
}

/**
 * Another module's own stored files (writeups, issue 32): bytes in a folder of the upload folder,
 * named by that module with a random key, never listed with the uploads nor served by name. The
 * same streaming receipt (counted, never whole in memory) and atomic placement as an upload.
 */
export const privateFiles = {
  folder: (ctx: AppContext, purpose: 'writeups'): string => path.join(ctx.config.uploadDir, purpose),
  receive: receiveToTemp,
  commit: commitTemp,
  discard: discardTemp,
  open: openStored,
  remove: removeStored,
  TooLargeError,
};
export type { TempUpload };

/** The bytes of an uploaded file by its exact stored name (a solution's file for the archive), or null. */
export async function readUploadedFile(ctx: AppContext, name: string): Promise<Buffer | null> {
  if (adminApi.fileNameProblem(name)) return null;
  return readStored(ctx.config.uploadDir, name);
}
