import multipart from '@fastify/multipart';
import { SETTINGS_LIMITS, settingsApi } from '@ctf/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { DomainError, badInput } from '../../lib/errors.js';
import { route } from '../../plugins/route.js';
import { requireStaff } from '../../plugins/session.js';
import { getAdminSettings, logoTooLarge, readLogo, saveLogo, updateSettings } from './settings.service.js';

/** Room for the multipart boundaries and part headers around the logo itself. */
const MULTIPART_OVERHEAD_BYTES = 16 * 1024;

export function registerSettingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, settingsApi.getSettings, 'admin', async () => getAdminSettings(ctx));

  route(app, settingsApi.updateSettings, 'admin', async (request) => ({
    acknowledge: true,
    message: 'Settings saved.',
    settings: await updateSettings(ctx, request.body, requireStaff(request)),
  }));

  // Multipart parsing exists only inside this scope, for the logo route.
  void app.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: false });
    route(
      scope,
      settingsApi.uploadLogo,
      'admin',
      async (request) => {
        const logoUrl = await saveLogo(ctx, await receiveLogo(request), requireStaff(request));
        return { acknowledge: true, message: 'Logo saved.', logoUrl };
      },
      { bodyLimit: SETTINGS_LIMITS.logoMaxBytes + MULTIPART_OVERHEAD_BYTES },
    );
  });

  // The logo is public (the navbar shows it to visitors); its URL carries the content's hash.
  app.get<{ Querystring: { v?: string } }>(settingsApi.LOGO_PATH, async (request, reply) => {
    const logo = await readLogo(ctx);
    if (!logo) throw new DomainError('not_found', 'No logo has been uploaded');
    const versioned = request.query.v === logo.hash.slice(0, 16);
    return reply
      .type(logo.type)
      .header('Cache-Control', versioned ? 'public, max-age=31536000, immutable' : 'no-cache')
      .header('ETag', `"${logo.hash}"`)
      .send(logo.bytes);
  });
}

/** Reads the one file part ('file') of a logo upload, refusing more than the limit. */
async function receiveLogo(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart())
    throw badInput("Invalid file: send the logo as multipart/form-data in the field 'file'");
  let part;
  try {
    part = await request.file({
      limits: { fileSize: SETTINGS_LIMITS.logoMaxBytes, files: 1, fields: 0, parts: 1 },
    });
  } catch {
    throw badInput('Invalid file: the multipart body is malformed');
  }
  if (!part) throw badInput("Invalid file: choose a logo for the field 'file'");
  if (part.fieldname !== 'file') {
    part.file.resume();
    throw badInput(`Invalid ${part.fieldname}: send the logo in the field 'file'`);
  }
  const bytes = await part.toBuffer().catch(() => {
    throw badInput('Invalid file: the multipart body is malformed or was cut short');
  });
  if (part.file.truncated) throw logoTooLarge();
  return bytes;
}
