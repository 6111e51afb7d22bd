import {
  announcementsApi,
  type AckResponse,
  type AdminAnnouncement,
  type AnnouncementInput,
} from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { CachedJson } from '../../lib/cached-json.js';
import { notFound } from '../../lib/errors.js';
import { CachedValue } from '../../lib/invalidation.js';
import { renderMarkdown } from '../../lib/markdown.js';
import { SYSTEM_ACTOR, changedFields, recordAudit, type AuditActor } from '../audit/audit.service.js';
import {
  deleteAnnouncementRow,
  findAnnouncement,
  insertAnnouncement,
  listAnnouncementRows,
  updateAnnouncementRow,
  type AnnouncementRow,
} from './announcements.repo.js';

function present(row: AnnouncementRow): AdminAnnouncement {
  return {
    _id: String(row.id),
    title: row.title,
    body: row.body,
    body_html: row.body_html,
    pinned: row.pinned === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const caches = new WeakMap<AppContext, CachedValue<CachedJson>>();

/**
 * The public list (GET /api/info/announcements), serialised once per change and revalidated by
 * ETag like the challenge list. Open to everyone, also while the site is inactive: organisers
 * announce the start there.
 */
export async function getPublicAnnouncements(ctx: AppContext): Promise<CachedJson> {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new CachedValue(ctx.bus, ['announcements'], async () =>
      CachedJson.of(
        announcementsApi.listAnnouncements.response,
        (await listAnnouncementRows(ctx.database.db)).map(present),
      ),
    );
    caches.set(ctx, cache);
  }
  return cache.get();
}

/** The admin tab's list: with each Markdown body, for editing. */
export async function listAnnouncementsForAdmin(ctx: AppContext): Promise<AdminAnnouncement[]> {
  return (await listAnnouncementRows(ctx.database.db)).map(present);
}

const target = (id: number, title: string) => `announcement '${title}' (#${id})`;

/**
 * Posts an announcement: stored with its rendered body and its audit entry in one transaction,
 * then every open page hears of it (a toast) through the live event stream.
 */
export async function createAnnouncement(
  ctx: AppContext,
  input: AnnouncementInput,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<AckResponse & { _id: string }> {
  const at = ctx.clock.now();
  const now = at.toISOString();
  const bodyHtml = await renderMarkdown(input.body);
  const posted = (id: number) => ({ id, title: input.title, body: input.body });
  const id = await ctx.database.transaction(async (trx) => {
    const id = await insertAnnouncement(trx, {
      title: input.title,
      body: input.body,
      body_html: bodyHtml,
      pinned: input.pinned ? 1 : 0,
      created_at: now,
      updated_at: now,
    });
    await recordAudit(trx, {
      actor,
      action: 'announcement.create',
      target: target(id, input.title),
      details: { pinned: input.pinned },
      at,
    });
    // The outbox writes its Discord message here, so it commits with the announcement.
    await ctx.domainEvents.emitInTransaction(trx, 'announcement.posted', posted(id));
    return id;
  });
  ctx.bus.publish('announcements');
  await ctx.domainEvents.emit('announcement.posted', posted(id));
  return { acknowledge: true, message: 'Announcement posted.', _id: String(id) };
}

/** Edits an announcement (404 when unknown); open pages refresh without a toast. */
export async function updateAnnouncement(
  ctx: AppContext,
  id: number,
  input: Required<AnnouncementInput>,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<AckResponse> {
  const at = ctx.clock.now();
  const bodyHtml = await renderMarkdown(input.body);
  await ctx.database.transaction(async (trx) => {
    const before = await findAnnouncement(trx, id);
    if (!before) throw notFound('Announcement not found');
    const pinned = input.pinned ? 1 : 0;
    await updateAnnouncementRow(trx, id, {
      title: input.title,
      body: input.body,
      body_html: bodyHtml,
      pinned,
      updated_at: at.toISOString(),
    });
    await recordAudit(trx, {
      actor,
      action: 'announcement.update',
      target: target(id, input.title),
      details: changedFields(
        { title: before.title, body: before.body, pinned: before.pinned === 1 },
        { title: input.title, body: input.body, pinned: input.pinned },
      ),
      at,
    });
  });
  ctx.bus.publish('announcements');
  await ctx.domainEvents.emit('announcement.updated', { id, title: input.title });
  return { acknowledge: true, message: 'Announcement updated.' };
}

export async function deleteAnnouncement(
  ctx: AppContext,
  id: number,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<AckResponse> {
  const at = ctx.clock.now();
  const title = await ctx.database.transaction(async (trx) => {
    const before = await findAnnouncement(trx, id);
    if (!before || !(await deleteAnnouncementRow(trx, id))) throw notFound('Announcement not found');
    await recordAudit(trx, { actor, action: 'announcement.delete', target: target(id, before.title), at });
    // Its queued Discord message and its live events go in this transaction (webhooks, events).
    await ctx.domainEvents.emitInTransaction(trx, 'announcement.deleted', { id, title: before.title });
    return before.title;
  });
  ctx.bus.publish('announcements');
  await ctx.domainEvents.emit('announcement.deleted', { id, title });
  return { acknowledge: true, message: 'Announcement deleted.' };
}
