import { z } from 'zod';
import { AckResponse, IdInput, IdString, Timestamp, endpoint } from './common.js';
import { ROUTES } from './routes.js';

/**
 * Writeups (issue 32, docs/decisions/0013-after-the-event.md): a competitor (a team, or a player
 * without one) hands in one writeup per challenge it solved, a https link or a PDF or Markdown
 * file (at most WRITEUP_MAX_BYTES, checked by content); admins review, publish and download them.
 * A writeup is either `url` or `file`, never both.
 */

/** A handed-in file: its safe download name, size, media type, and where to fetch it. */
export const WriteupFile = z.object({
  name: z.string(),
  size: z.number(),
  type: z.enum(['application/pdf', 'text/markdown']),
  /** The download URL for the caller (a path on this site). */
  href: z.string(),
});
export type WriteupFile = z.infer<typeof WriteupFile>;

const kindFields = { url: z.string().optional(), file: WriteupFile.optional() };

/** One of the caller's competitor's writeups (the challenge page, the profile). */
export const MyWriteup = z.object({
  _id: IdString,
  challenge_id: IdString,
  ...kindFields,
  submittedAt: Timestamp,
  reviewed: z.boolean(),
  published: z.boolean(),
});
export type MyWriteup = z.infer<typeof MyWriteup>;

/** A writeup in the admin's list, with the challenge's and the competitor's names. */
export const AdminWriteup = MyWriteup.extend({
  challenge: z.string(),
  competitor: z.string(),
  /** The competitor's division, or null (no division). */
  division: z.string().nullable(),
});
export type AdminWriteup = z.infer<typeof AdminWriteup>;

/** A published writeup as the challenge page shows it after the event. */
export const PublishedWriteup = z.object({
  _id: IdString,
  challenge_id: IdString,
  competitor: z.string(),
  ...kindFields,
  submittedAt: Timestamp,
});
export type PublishedWriteup = z.infer<typeof PublishedWriteup>;

/** Multipart: `challenge_id`, and either `url` or `file` (a PDF or Markdown file); answers its id. */
export const submitWriteup = endpoint({
  ...ROUTES.writeups.submitWriteup,
  body: undefined,
  consumes: 'multipart/form-data',
  response: z.object({ _id: IdString }),
});

export const myWriteups = endpoint({
  ...ROUTES.writeups.myWriteups,
  body: undefined,
  response: z.array(MyWriteup),
});

/**
 * A writeup's file: the caller's competitor's own, a published one once the event has ended, or
 * any for the staff who may list writeups. A download; with inline=1 Markdown is shown as
 * sandboxed plain text (a PDF is always a download). Never rendered on the site's origin.
 */
export const writeupFile = endpoint({
  ...ROUTES.writeups.writeupFile,
  body: undefined,
  query: z.object({ writeup_id: IdInput, inline: z.enum(['0', '1']).optional() }),
  response: z.string(),
  produces: 'application/octet-stream',
});

/** The published writeups of a challenge once the event has ended (an empty list before). */
export const publishedWriteups = endpoint({
  ...ROUTES.writeups.publishedWriteups,
  body: undefined,
  query: z.object({ challenge_id: IdInput }),
  response: z.array(PublishedWriteup),
});

/** Filters of the admin's list: any of challenge, competitor (its name) and division (its name). */
export const AdminWriteupQuery = z.object({
  challenge_id: IdInput.optional(),
  competitor: z.string().trim().max(100).optional(),
  division: z.string().trim().max(100).optional(),
});
export type AdminWriteupQuery = z.input<typeof AdminWriteupQuery>;

export const adminWriteups = endpoint({
  ...ROUTES.writeups.adminWriteups,
  body: undefined,
  query: AdminWriteupQuery,
  response: z.array(AdminWriteup),
});

export const ReviewWriteupBody = z
  .object({
    writeup_id: IdInput,
    reviewed: z.boolean({ error: 'reviewed must be true or false' }),
    published: z.boolean({ error: 'published must be true or false' }),
  })
  .strict();

export const reviewWriteup = endpoint({
  ...ROUTES.writeups.reviewWriteup,
  body: ReviewWriteupBody,
  response: AckResponse,
});

/** Every writeup in one ZIP: a folder per challenge, the files, and index.csv (audited). */
export const writeupsZip = endpoint({
  ...ROUTES.writeups.writeupsZip,
  body: undefined,
  response: z.string(),
  produces: 'application/zip',
});

export const WRITEUP_ADMIN_ENDPOINTS = [adminWriteups, reviewWriteup, writeupsZip] as const;
