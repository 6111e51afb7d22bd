import {
  MESSAGES,
  WRITEUP_CONTENT_TYPES,
  WRITEUP_MAX_BYTES,
  WriteupContentCheck,
  safeWriteupName,
  writeupKindOfName,
  type WriteupFileKind,
} from '@ctf/contract';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Transform, pipeline, type Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { badInput } from '../../lib/errors.js';
import { privateFiles, type TempUpload } from '../files/files.service.js';
import { pdfStreamsProblem } from './pdf-streams.js';

// A writeup's bytes: received while checked (kind by name, then the whole content as it streams,
// reading stopped at the first problem or past WRITEUP_MAX_BYTES; a PDF's compressed streams are
// then inflated within a budget and checked too: pdf-streams.ts), stored under a random key in the upload
// folder's writeups/ folder, and read back only through the writeups service's checks.

/** One uploaded file as the multipart parser hands it over, still streaming. */
export interface IncomingWriteupFile {
  filename: string;
  stream: Readable;
  /** Whether the parser cut the file at its size limit. */
  truncated: () => boolean;
}

export interface ReceivedWriteupFile {
  temp: TempUpload;
  name: string;
  size: number;
  type: string;
  kind: WriteupFileKind;
}

class RefusedContent extends Error {}

export const writeupFolder = (ctx: AppContext) => privateFiles.folder(ctx, 'writeups');

/**
 * Streams a writeup file into a temporary file, checking it as it comes. A refused file is
 * removed, the rest of its part drained, and the problem thrown as a 400 naming it.
 */
export async function receiveWriteupFile(
  ctx: AppContext,
  file: IncomingWriteupFile,
): Promise<ReceivedWriteupFile> {
  const kind = writeupKindOfName(file.filename);
  if (!kind) {
    file.stream.resume();
    throw badInput(MESSAGES.writeupFileType);
  }
  const check = new WriteupContentCheck(kind);
  const inspector = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const problem = check.push(chunk);
      if (problem) callback(new RefusedContent(problem));
      else callback(null, chunk);
    },
  });
  const source = pipeline(file.stream, inspector, () => {});
  let temp: TempUpload;
  try {
    temp = await privateFiles.receive(writeupFolder(ctx), source, WRITEUP_MAX_BYTES, file.truncated);
  } catch (err) {
    file.stream.resume();
    if (err instanceof RefusedContent) throw badInput(err.message);
    if (err instanceof privateFiles.TooLargeError) throw badInput(MESSAGES.writeupFileTooLarge);
    throw err;
  }
  const problem =
    check.finish() ?? (kind === 'pdf' ? pdfStreamsProblem(await readFile(temp.tempPath)) : null);
  if (problem) {
    await privateFiles.discard(temp);
    throw badInput(problem);
  }
  return {
    temp,
    name: safeWriteupName(file.filename, kind),
    size: temp.size,
    type: WRITEUP_CONTENT_TYPES[kind],
    kind,
  };
}

/** Places a received file under a new random key; answers the key. */
export async function storeWriteupFile(ctx: AppContext, received: ReceivedWriteupFile): Promise<string> {
  const key = `${randomBytes(16).toString('hex')}${received.kind === 'pdf' ? '.pdf' : '.md'}`;
  await privateFiles.commit(writeupFolder(ctx), received.temp, key);
  return key;
}

export async function discardWriteupFile(received: ReceivedWriteupFile): Promise<void> {
  await privateFiles.discard(received.temp);
}

export async function removeWriteupFile(ctx: AppContext, key: string): Promise<void> {
  await privateFiles.remove(writeupFolder(ctx), key);
}

export function openWriteupFile(ctx: AppContext, key: string) {
  return privateFiles.open(writeupFolder(ctx), key);
}
