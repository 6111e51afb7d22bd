import multipart from '@fastify/multipart';
import { CHALLENGE_ARCHIVE_LIMITS, adminApi, type ImportResult } from '@ctf/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { route } from '../../plugins/route.js';
import { requireStaff } from '../../plugins/session.js';
import { exportChallengeZip } from './archive-export.js';
import { addSampleChallenges, importChallengeZip } from './archive.service.js';
import { withImportSlot } from './import-slot.js';

const MB = 1024 * 1024;

/** An import refused before its archive could be read: the result shape, one error. */
function refusedUpload(file: string, message: string): ImportResult {
  const errors = [{ file, line: null, message }];
  return {
    acknowledge: false,
    message: adminApi.importRefusedText(errors),
    created: [],
    updated: [],
    warnings: [],
    errors,
  };
}

/** Reads the one file part ('file') into memory, up to the archive limit. */
async function receiveArchive(
  request: FastifyRequest,
): Promise<{ name: string; bytes: Buffer } | ImportResult> {
  if (!request.isMultipart())
    return refusedUpload('', "Send the archive as multipart/form-data in the field 'file'.");
  const max = CHALLENGE_ARCHIVE_LIMITS.maxArchiveBytes;
  let part;
  try {
    part = await request.file({ limits: { fileSize: max, files: 1, fields: 5, fieldSize: 1024, parts: 6 } });
  } catch {
    return refusedUpload('', 'The upload could not be read: the multipart body is malformed.');
  }
  if (!part) return refusedUpload('', "No file was sent: choose a ZIP for the field 'file'.");
  if (part.fieldname !== 'file') {
    part.file.resume();
    return refusedUpload('', `Unexpected field '${part.fieldname}': send the archive in the field 'file'.`);
  }
  let bytes: Buffer;
  try {
    bytes = await part.toBuffer();
  } catch {
    part.file.resume();
    return refusedUpload(part.filename, `The archive is larger than ${max / MB} MB: refused.`);
  }
  if (part.file.truncated)
    return refusedUpload(part.filename, `The archive is larger than ${max / MB} MB: refused.`);
  return { name: part.filename, bytes };
}

/** POST /api/admin/ctf/import and GET /api/admin/ctf/export (issue 17). */
export function registerChallengeArchiveRoutes(app: FastifyInstance, ctx: AppContext): void {
  void app.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: true });
    route(
      scope,
      adminApi.importChallenges,
      'admin',
      async (request, reply) => {
        const actor = requireStaff(request);
        const dryRun = request.query.dry_run === '1' || request.query.dry_run === 'true';
        // The slot before the body: a waiting import has not read its archive into memory yet.
        const result = await withImportSlot(ctx, async () => {
          const received = await receiveArchive(request);
          return 'bytes' in received
            ? importChallengeZip(ctx, received.bytes, received.name, { dryRun, actor })
            : received;
        });
        if (result.errors.length > 0) return reply.code(400).send(result);
        return result;
      },
      { bodyLimit: CHALLENGE_ARCHIVE_LIMITS.maxArchiveBytes + MB },
    );
  });

  route(app, adminApi.addSampleChallenges, 'admin', async (request, reply) => {
    const actor = requireStaff(request);
    const result = await withImportSlot(ctx, () => addSampleChallenges(ctx, actor));
    if (result.errors.length > 0) return reply.code(400).send(result);
    return result;
  });

  route(app, adminApi.exportChallenges, 'admin', async (request, reply) => {
    const zip = await exportChallengeZip(ctx, requireStaff(request));
    const day = ctx.clock.now().toISOString().slice(0, 10);
    return reply
      .type('application/zip')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `attachment; filename="challenges-${day}.zip"`)
      .send(zip);
  });
}
