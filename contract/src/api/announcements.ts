import { z } from 'zod';
import { AckResponse, IdInput, IdString, Timestamp, endpoint, markdownWithinBudget } from './common.js';
import { ROUTES } from './routes.js';
import { ANNOUNCEMENT_BODY_MAX_LENGTH, ANNOUNCEMENT_TITLE_MAX_LENGTH } from '../rules/constants.js';

/**
 * Announcements (issue 15): organisers tell players things. Everyone reads them, visitors too,
 * also while the site is inactive. The body is Markdown; body_html is its sanitised rendering.
 */
export const Announcement = z.object({
  _id: IdString,
  title: z.string(),
  body_html: z.string(),
  pinned: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Announcement = z.infer<typeof Announcement>;

/** Pinned first, then newest first. */
export const listAnnouncements = endpoint({
  ...ROUTES.announcements.listAnnouncements,
  body: undefined,
  response: z.array(Announcement),
});

const title = z
  .string({ error: 'Title is required' })
  .trim()
  .min(1, 'Title is required')
  .max(ANNOUNCEMENT_TITLE_MAX_LENGTH, `Title must be at most ${ANNOUNCEMENT_TITLE_MAX_LENGTH} characters`);
const body = z
  .string({ error: 'Body is required' })
  .max(ANNOUNCEMENT_BODY_MAX_LENGTH, `Body must be at most ${ANNOUNCEMENT_BODY_MAX_LENGTH} characters`)
  .refine((v) => v.trim() !== '', 'Body is required')
  .superRefine(markdownWithinBudget('Body'));

export const AnnouncementInput = z.object({ title, body, pinned: z.boolean().optional().default(false) });
export type AnnouncementInput = z.infer<typeof AnnouncementInput>;

/** The admin tab edits the Markdown itself, so the admin list carries it. */
export const AdminAnnouncement = Announcement.extend({ body: z.string() });
export type AdminAnnouncement = z.infer<typeof AdminAnnouncement>;

/** The admin tab's list: the same order, with each Markdown body. */
export const adminAnnouncements = endpoint({
  ...ROUTES.announcements.adminAnnouncements,
  body: undefined,
  response: z.array(AdminAnnouncement),
});

export const createAnnouncement = endpoint({
  ...ROUTES.announcements.createAnnouncement,
  body: AnnouncementInput,
  response: AckResponse.extend({ _id: IdString }),
});
export const updateAnnouncement = endpoint({
  ...ROUTES.announcements.updateAnnouncement,
  body: z.object({ _id: IdInput, title, body, pinned: z.boolean({ error: 'pinned must be true or false' }) }),
  response: AckResponse,
});
export const deleteAnnouncement = endpoint({
  ...ROUTES.announcements.deleteAnnouncement,
  body: z.object({ _id: IdInput }),
  response: AckResponse,
});

/** The admin endpoints, walked by the authorization matrix test (ADMIN_ENDPOINTS). */
export const ANNOUNCEMENT_ADMIN_ENDPOINTS = [
  adminAnnouncements,
  createAnnouncement,
  updateAnnouncement,
  deleteAnnouncement,
] as const;
