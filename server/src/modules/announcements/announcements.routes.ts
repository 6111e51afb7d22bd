import { announcementsApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { sendCachedJson } from '../../plugins/cached-json.js';
import { route } from '../../plugins/route.js';
import { requireStaff } from '../../plugins/session.js';
import {
  createAnnouncement,
  deleteAnnouncement,
  getPublicAnnouncements,
  listAnnouncementsForAdmin,
  updateAnnouncement,
} from './announcements.service.js';

export function registerAnnouncementRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The same bytes for everyone, visitors included, whether or not the site is active.
  route(app, announcementsApi.listAnnouncements, 'anonymous', async (request, reply) =>
    sendCachedJson(request, reply, await getPublicAnnouncements(ctx)),
  );
  route(app, announcementsApi.adminAnnouncements, 'admin', async () => listAnnouncementsForAdmin(ctx));
  route(app, announcementsApi.createAnnouncement, 'admin', async (request) =>
    createAnnouncement(ctx, request.body, requireStaff(request)),
  );
  route(app, announcementsApi.updateAnnouncement, 'admin', async (request) => {
    const { _id, ...input } = request.body;
    return updateAnnouncement(ctx, _id, input, requireStaff(request));
  });
  route(app, announcementsApi.deleteAnnouncement, 'admin', async (request) =>
    deleteAnnouncement(ctx, request.body._id, requireStaff(request)),
  );
}
