import multipart from '@fastify/multipart';
import { MESSAGES, WRITEUP_MAX_BYTES, WRITEUP_URL_MAX_LENGTH, writeupsApi } from '@ctf/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { DomainError, badInput } from '../../lib/errors.js';
import { route } from '../../plugins/route.js';
import { requireStaff, requireUser } from '../../plugins/session.js';
import { discardWriteupFile, receiveWriteupFile, type ReceivedWriteupFile } from './writeup-files.js';
import { buildWriteupsZip } from './writeups-zip.js';
import {
  assertMayHandIn,
  handInWriteup,
  listAdminWriteups,
  listMyWriteups,
  listPublishedWriteups,
  openWriteupFor,
  reviewWriteup,
  type WriteupDownload,
} from './writeups.service.js';

/** Room for the multipart boundaries, part headers and the small fields around the file. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const CHALLENGE_ID = /^[1-9][0-9]{0,9}$/;

/**
 * Reads POST /api/ctf/writeup's parts: `challenge_id`, then `url` or one `file`. When the id comes
 * first (the site's form sends it first) the gates are checked before a byte of the file is read;
 * the file is checked by content as it streams (writeup-files.ts).
 */
async function receiveSubmission(ctx: AppContext, request: FastifyRequest) {
  if (!request.isMultipart()) throw badInput(MESSAGES.writeupLinkOrFile);
  const user = requireUser(request);
  let challengeId: number | null = null;
  let url: string | null = null;
  let file: ReceivedWriteupFile | null = null;
  const fail = async (err: unknown): Promise<never> => {
    if (file) await discardWriteupFile(file);
    throw err;
  };
  try {
    const parts = request.parts({
      limits: {
        fileSize: WRITEUP_MAX_BYTES + 1,
        files: 1,
        fields: 3,
        fieldSize: WRITEUP_URL_MAX_LENGTH + 100,
        parts: 4,
      },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        const value = typeof part.value === 'string' ? part.value : '';
        if (part.fieldname === 'challenge_id') {
          if (!CHALLENGE_ID.test(value.trim())) await fail(badInput('Invalid challenge_id: must be an id'));
          challengeId = Number(value.trim());
        } else if (part.fieldname === 'url') url = value;
        else await fail(badInput(`Unexpected field '${part.fieldname}'.`));
        continue;
      }
      if (part.fieldname !== 'file' || file) {
        part.file.resume();
        await fail(badInput(`Unexpected field '${part.fieldname}'.`));
      }
      if (challengeId !== null) {
        try {
          await assertMayHandIn(ctx, user, challengeId);
        } catch (err) {
          part.file.resume();
          await fail(err);
        }
      }
      file = await receiveWriteupFile(ctx, {
        filename: part.filename,
        stream: part.file,
        truncated: () => part.file.truncated,
      });
    }
  } catch (err) {
    if (err instanceof DomainError) await fail(err);
    await fail(badInput(MESSAGES.writeupMalformed));
  }
  if (challengeId === null) return fail(badInput('Invalid challenge_id: Required'));
  const hasUrl = url !== null && url.trim() !== '';
  if (hasUrl && file) return fail(badInput(MESSAGES.writeupLinkAndFile));
  if (!hasUrl && !file) return fail(badInput(MESSAGES.writeupLinkOrFile));
  return { challengeId, submission: file ? { file } : { url: url! } };
}

/**
 * Sends a writeup's file so that it can never run on the site's origin: nosniff, a sandboxing
 * policy, and (a PDF, or `download`) as an attachment; Markdown read in the browser is plain text.
 */
function sendWriteupFile(reply: FastifyReply, file: WriteupDownload, inline: boolean): FastifyReply {
  const asText = inline && file.type === 'text/markdown';
  return reply
    .header('Content-Type', asText ? 'text/plain; charset=utf-8' : file.type)
    .header('Content-Disposition', `${asText ? 'inline' : 'attachment'}; filename="${file.name}"`)
    .header('Content-Security-Policy', "sandbox; default-src 'none'; frame-ancestors 'none'")
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'private, no-store')
    .header('Content-Length', String(file.open.size))
    .send(file.open.handle.createReadStream());
}

/** Issue 32's writeup routes (docs/decisions/0013-after-the-event.md). */
export function registerWriteupRoutes(app: FastifyInstance, ctx: AppContext): void {
  void app.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: false });
    route(
      scope,
      writeupsApi.submitWriteup,
      'user',
      async (request) => {
        const { challengeId, submission } = await receiveSubmission(ctx, request);
        return handInWriteup(ctx, requireUser(request), challengeId, submission);
      },
      { bodyLimit: WRITEUP_MAX_BYTES + MULTIPART_OVERHEAD_BYTES },
    );
  });

  route(app, writeupsApi.myWriteups, 'user', async (request) => listMyWriteups(ctx, requireUser(request)));

  route(app, writeupsApi.writeupFile, 'user', async (request, reply) =>
    sendWriteupFile(
      reply,
      await openWriteupFor(ctx, requireUser(request), request.query.writeup_id),
      request.query.inline === '1',
    ),
  );

  route(app, writeupsApi.publishedWriteups, 'user', async (request) =>
    listPublishedWriteups(ctx, request.query.challenge_id),
  );

  route(app, writeupsApi.adminWriteups, 'admin', async (request) => listAdminWriteups(ctx, request.query));

  route(app, writeupsApi.reviewWriteup, 'admin', async (request) => {
    const { writeup_id, reviewed, published } = request.body;
    await reviewWriteup(ctx, requireStaff(request), { writeupId: writeup_id, reviewed, published });
    return { acknowledge: true, message: 'Writeup updated.' };
  });

  route(app, writeupsApi.writeupsZip, 'admin', async (request, reply) => {
    const zip = await buildWriteupsZip(ctx, requireStaff(request));
    const day = ctx.clock.now().toISOString().slice(0, 10);
    return reply
      .type('application/zip')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `attachment; filename="writeups-${day}.zip"`)
      .send(zip);
  });
}
