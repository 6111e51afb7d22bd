import multipart from '@fastify/multipart';
import { adminApi, challengesApi } from '@ctf/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { DomainError, badInput } from '../../lib/errors.js';
import { route } from '../../plugins/route.js';
import { requireStaff, requireUser } from '../../plugins/session.js';
import {
  deleteUpload,
  listUploads,
  openDownload,
  saveUpload,
  tooLarge,
  type Download,
} from './files.service.js';
import { removeStaleTemps } from './files.storage.js';

/** Room for the multipart boundaries and part headers around the file itself. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const STALE_TEMP_MS = 24 * 60 * 60 * 1000;

export function registerFilesRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Multipart parsing exists only inside this scope, for the upload route (docs/product.md §14).
  void app.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: false });
    route(scope, adminApi.upload, 'admin', async (request) => {
      const saved = await receiveUpload(ctx, request);
      return { acknowledge: true, message: `File '${saved.name}' uploaded successfully.` };
    });
  });

  route(app, adminApi.getUploads, 'admin', async (request) => listUploads(ctx, requireStaff(request)));

  route(app, adminApi.deleteFile, 'admin', async (request) => {
    await deleteUpload(ctx, request.body.filename, requireStaff(request));
    return { acknowledge: true, message: `File '${request.body.filename}' deleted.` };
  });

  // A wildcard, not a parameter: no 100-character cap on names, and a name with slashes reaches
  // the handler (to be refused there) instead of falling through to the web app.
  app.get<{ Params: { '*': string } }>(
    `${challengesApi.DOWNLOAD_PATH_PREFIX}*`,
    { onRequest: async (request) => void requireUser(request) },
    async (request, reply) => {
      const file = await openDownload(ctx, requireUser(request), request.params['*']);
      return sendDownload(request, reply, file);
    },
  );

  app.addHook('onReady', async () => {
    await removeStaleTemps(ctx.config.uploadDir, STALE_TEMP_MS, Date.now());
  });
}

/** Reads the one file part of an upload request and hands its stream to the service. */
async function receiveUpload(ctx: AppContext, request: FastifyRequest) {
  if (!request.isMultipart()) throw badInput("Send the file as multipart/form-data in the field 'file'.");
  // Refuse an announced oversize body before reading any of it.
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > ctx.config.uploadMaxBytes + MULTIPART_OVERHEAD_BYTES) {
    throw tooLarge(ctx);
  }
  let part;
  try {
    part = await request.file({
      // Keep the name as sent: a name with path parts is refused, never quietly cut to its base name.
      preservePath: true,
      limits: { fileSize: ctx.config.uploadMaxBytes, files: 1, fields: 5, fieldSize: 1024, parts: 6 },
    });
  } catch {
    throw badInput('The upload could not be read: the multipart body is malformed.');
  }
  if (!part) throw badInput("No file was sent: choose a file for the field 'file'.");
  const stream = part.file;
  if (part.fieldname !== 'file') {
    stream.resume();
    throw badInput(`Unexpected field '${part.fieldname}': send the file in the field 'file'.`);
  }
  try {
    return await saveUpload(
      ctx,
      {
        filename: part.filename,
        mimetype: part.mimetype,
        stream,
        truncated: () => stream.truncated,
      },
      requireStaff(request),
    );
  } catch (err) {
    // Discard the rest of a refused file so the answer reaches the browser.
    stream.resume();
    if (err instanceof DomainError || (err as NodeJS.ErrnoException).code?.startsWith('E')) throw err;
    throw badInput('The upload could not be read: the multipart body is malformed or was cut short.');
  }
}

/** Parses a single `bytes=` range; null means "send it all" (absent, malformed or several ranges). */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return null;
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return { start, end };
}

function sendDownload(request: FastifyRequest, reply: FastifyReply, file: Download): FastifyReply {
  const lastModified = file.modified.toUTCString();
  void reply
    .header('Content-Type', 'application/zip')
    // Stored names hold only letters, digits, space and . _ - ( ), so quoting them is safe.
    .header('Content-Disposition', `attachment; filename="${file.name}"`)
    .header('Cache-Control', 'private, no-cache')
    .header('Last-Modified', lastModified)
    .header('Accept-Ranges', 'bytes');
  const ifRange = request.headers['if-range'];
  const range = ifRange && ifRange !== lastModified ? null : parseRange(request.headers.range, file.size);
  if (range === 'unsatisfiable') {
    void file.handle.close();
    return reply
      .status(416)
      .header('Content-Range', `bytes */${file.size}`)
      .type('application/json')
      .send('{"message":"Range Not Satisfiable"}');
  }
  if (range) {
    void reply
      .status(206)
      .header('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`)
      .header('Content-Length', String(range.end - range.start + 1));
    return reply.send(file.handle.createReadStream({ start: range.start, end: range.end }));
  }
  void reply.header('Content-Length', String(file.size));
  return reply.send(file.handle.createReadStream());
}
