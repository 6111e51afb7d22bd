import {
  MESSAGES,
  mayCall,
  nameKey,
  writeupUrlProblem,
  writeupsOpenAt,
  writeupsApi,
  type AdminWriteup,
  type AdminWriteupQuery,
  type MyWriteup,
  type PublishedWriteup,
} from '@ctf/contract';
import { readFile } from 'node:fs/promises';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { DomainError, badInput, notFound } from '../../lib/errors.js';
import { toApiId } from '../../lib/ids.js';
import { recordAudit, type AuditActor } from '../audit/audit.service.js';
import { getDivisionState } from '../divisions/divisions.service.js';
import { hasEventEnded, readEventState } from '../event-state/event-state.service.js';
import {
  competitorSolved,
  isKnownChallenge,
  listArchivableSolutions,
  listChallengeNamesOf,
} from '../challenges/challenges.service.js';
import { readUploadedFile } from '../files/files.service.js';
import {
  discardWriteupFile,
  openWriteupFile,
  removeWriteupFile,
  storeWriteupFile,
  type ReceivedWriteupFile,
} from './writeup-files.js';
import {
  competitorNames,
  findWriteup,
  findWriteupOf,
  listWriteups,
  listWriteupsOfCompetitor,
  lockCompetitor,
  setWriteupReview,
  upsertWriteup,
  type WriteupRow,
} from './writeups.repo.js';

/**
 * Writeups (issue 32, docs/decisions/0013-after-the-event.md): a competitor (the user's team now,
 * or the user without one, as hint unlocks count) hands in one writeup per challenge it solved,
 * while collection is open and before its deadline; a replacement is an upsert of the one row.
 * Admins list, read, review and publish them; published ones show after the event.
 */

export interface CompetitorKey {
  key: string;
  teamId: number | null;
  userId: number;
}

export function competitorKeyOf(user: Pick<UserRow, 'id' | 'team_id'>): CompetitorKey {
  return user.team_id === null
    ? { key: `u${user.id}`, teamId: null, userId: user.id }
    : { key: `t${user.team_id}`, teamId: user.team_id, userId: user.id };
}

const WRITEUP_NOT_FOUND = 'Writeup not found';
const CHALLENGE_NOT_FOUND = 'Challenge not found';

/**
 * Whether the caller's competitor may hand in a writeup of this challenge now: the challenge
 * exists (404), collection is open and not past its deadline (403 'Writeups are closed.'), and
 * the competitor solved it (403 'Solve this challenge first.'). Checked before a byte of a file
 * is read, and again inside the write.
 */
export async function assertMayHandIn(ctx: AppContext, user: UserRow, challengeId: number): Promise<void> {
  if (!(await isKnownChallenge(ctx, challengeId))) throw notFound(CHALLENGE_NOT_FOUND);
  const { settings } = await readEventState(ctx);
  if (!writeupsOpenAt(settings.writeups, ctx.clock.now()))
    throw new DomainError('forbidden', MESSAGES.writeupsClosed);
  if (!(await competitorSolved(ctx.database.db, challengeId, user.id, user.team_id)))
    throw new DomainError('forbidden', MESSAGES.writeupSolveFirst);
}

/** A hand-in: a link, or a file already received and checked (writeup-files.ts). */
export type WriteupSubmission = { url: string } | { file: ReceivedWriteupFile };

/**
 * Hands in (or replaces) the caller's competitor's writeup. The file is placed first under a new
 * key, then the row written with the competitor locked, so two members handing in at once leave
 * one row and each replaced file is removed once (after the commit).
 */
export async function handInWriteup(
  ctx: AppContext,
  user: UserRow,
  challengeId: number,
  submission: WriteupSubmission,
): Promise<{ _id: string }> {
  let key: string | null = null;
  try {
    await assertMayHandIn(ctx, user, challengeId);
    let content;
    if ('url' in submission) {
      const url = submission.url.trim();
      const problem = writeupUrlProblem(url);
      if (problem) throw badInput(problem);
      content = { url, file: null };
    } else {
      key = await storeWriteupFile(ctx, submission.file);
      const { name, size, type } = submission.file;
      content = { url: null, file: { name, size, type, key } };
    }
    const competitor = competitorKeyOf(user);
    const at = ctx.clock.now().toISOString();
    const postgres = ctx.database.dialect === 'postgres';
    const { id, replaced } = await ctx.database.transaction(async (trx) => {
      await lockCompetitor(trx, competitor, postgres);
      const before = await findWriteupOf(trx, challengeId, competitor.key);
      const written = await upsertWriteup(trx, {
        challengeId,
        competitor: competitor.key,
        teamId: competitor.teamId,
        userId: user.id,
        content,
        at,
      });
      return { id: written, replaced: before?.storage_key ?? null };
    });
    key = null;
    if (replaced && replaced !== content.file?.key) await removeWriteupFile(ctx, replaced);
    return { _id: toApiId(id) };
  } catch (err) {
    if ('file' in submission) await discardWriteupFile(submission.file);
    if (key) await removeWriteupFile(ctx, key);
    throw err;
  }
}

function presentContent(row: WriteupRow, href: string) {
  if (row.url !== null) return { url: row.url };
  return {
    file: {
      name: row.file_name!,
      size: row.file_size!,
      type: row.file_type as 'application/pdf' | 'text/markdown',
      href,
    },
  };
}

const playerHref = (id: number) => `${writeupsApi.writeupFile.path}?writeup_id=${id}`;
/** The admin panel reads a Markdown writeup in the browser (sandboxed plain text). */
const adminHref = (id: number) => `${writeupsApi.writeupFile.path}?writeup_id=${id}&inline=1`;

/** GET /api/user/writeups: the caller's competitor's writeups. */
export async function listMyWriteups(ctx: AppContext, user: UserRow): Promise<MyWriteup[]> {
  const rows = await listWriteupsOfCompetitor(ctx.database.db, competitorKeyOf(user).key);
  return rows.map((r) => ({
    _id: toApiId(r.id),
    challenge_id: toApiId(r.challenge_id),
    ...presentContent(r, playerHref(r.id)),
    submittedAt: r.submitted_at,
    reviewed: r.reviewed === 1,
    published: r.published === 1,
  }));
}

/** Names (and division ids) of the competitors of some writeups, by competitor key. */
async function namesOf(
  ctx: AppContext,
  rows: readonly WriteupRow[],
): Promise<Map<string, { name: string; divisionId: number | null }>> {
  const teamIds = rows.filter((r) => r.competitor.startsWith('t')).map((r) => Number(r.competitor.slice(1)));
  const userIds = rows.filter((r) => r.competitor.startsWith('u')).map((r) => Number(r.competitor.slice(1)));
  const { teams, users } = await competitorNames(ctx.database.db, teamIds, userIds);
  const out = new Map<string, { name: string; divisionId: number | null }>();
  for (const r of rows) {
    const id = Number(r.competitor.slice(1));
    const found = r.competitor.startsWith('t') ? teams.get(id) : users.get(id);
    out.set(r.competitor, found ?? { name: '(removed)', divisionId: null });
  }
  return out;
}

/** GET /api/admin/writeups: every writeup, filtered by challenge, competitor name or division name. */
export async function listAdminWriteups(ctx: AppContext, query: AdminWriteupQuery): Promise<AdminWriteup[]> {
  const challengeId = query.challenge_id === undefined ? undefined : Number(query.challenge_id);
  const rows = await listWriteups(
    ctx.database.db,
    challengeId === undefined ? {} : { challengeIds: [challengeId] },
  );
  const [names, challenges, divisions] = await Promise.all([
    namesOf(ctx, rows),
    listChallengeNamesOf(ctx),
    getDivisionState(ctx),
  ]);
  const challengeName = new Map(challenges.map((c) => [c.id, c.name]));
  const competitorKey = query.competitor ? nameKey(query.competitor) : null;
  const divisionKey = query.division ? nameKey(query.division) : null;
  const out: AdminWriteup[] = [];
  for (const r of rows) {
    const who = names.get(r.competitor)!;
    const division = who.divisionId === null ? null : (divisions.byId.get(who.divisionId)?.name ?? null);
    if (competitorKey !== null && nameKey(who.name) !== competitorKey) continue;
    if (divisionKey !== null && (division === null || nameKey(division) !== divisionKey)) continue;
    out.push({
      _id: toApiId(r.id),
      challenge_id: toApiId(r.challenge_id),
      challenge: challengeName.get(r.challenge_id) ?? '',
      competitor: who.name,
      division,
      ...presentContent(r, adminHref(r.id)),
      submittedAt: r.submitted_at,
      reviewed: r.reviewed === 1,
      published: r.published === 1,
    });
  }
  return out;
}

/** POST /api/admin/writeups/review: reviewed and published as given, audited. */
export async function reviewWriteup(
  ctx: AppContext,
  actor: AuditActor,
  input: { writeupId: number; reviewed: boolean; published: boolean },
): Promise<void> {
  const at = ctx.clock.now();
  await ctx.database.transaction(async (trx) => {
    const row = await findWriteup(trx, input.writeupId);
    if (!row || !(await setWriteupReview(trx, input.writeupId, input))) throw notFound(WRITEUP_NOT_FOUND);
    await recordAudit(trx, {
      actor,
      action: 'writeup.review',
      target: `writeup #${row.id} of challenge #${row.challenge_id} by ${row.competitor}`,
      details: changed(row, input),
      at,
    });
  });
}

function changed(row: WriteupRow, input: { reviewed: boolean; published: boolean }) {
  return {
    before: { reviewed: row.reviewed === 1, published: row.published === 1 },
    after: { reviewed: input.reviewed, published: input.published },
  };
}

/** A writeup's stored file, open for a download. */
export interface WriteupDownload {
  name: string;
  type: string;
  open: NonNullable<Awaited<ReturnType<typeof openWriteupFile>>>;
}

async function openRowFile(ctx: AppContext, row: WriteupRow | null): Promise<WriteupDownload> {
  if (!row || row.storage_key === null) throw notFound(WRITEUP_NOT_FOUND);
  const open = await openWriteupFile(ctx, row.storage_key);
  if (!open) throw notFound(WRITEUP_NOT_FOUND);
  return { name: row.file_name!, type: row.file_type!, open };
}

/**
 * A writeup's file for the caller: its competitor's own, a published one once the event has ended,
 * or any for the staff the authorisation table lets list writeups (admin, monitor). Anything
 * else does not exist (404).
 */
export async function openWriteupFor(ctx: AppContext, user: UserRow, id: number): Promise<WriteupDownload> {
  const row = await findWriteup(ctx.database.db, id);
  if (!row) throw notFound(WRITEUP_NOT_FOUND);
  const allowed =
    row.competitor === competitorKeyOf(user).key ||
    mayCall(user.role, writeupsApi.adminWriteups) ||
    (row.published === 1 && (await hasEventEnded(ctx)));
  if (!allowed) throw notFound(WRITEUP_NOT_FOUND);
  return openRowFile(ctx, row);
}

/** A file by id with no caller's check (the ZIP, whose route the authorisation table guards). */
export async function openWriteupById(ctx: AppContext, id: number): Promise<WriteupDownload> {
  return openRowFile(ctx, await findWriteup(ctx.database.db, id));
}

/** A published writeup as the archive and the challenge page read it. */
export interface PublishedWriteupEntry {
  id: number;
  challengeId: number;
  competitorName: string;
  url?: string;
  file?: { name: string; size: number; contentType: string };
  submittedAt: string;
}

/**
 * READ FUNCTION for the event archive: the published writeups (of some challenges, or all),
 * oldest first, whether or not the event has ended (the archive decides when it runs).
 */
export async function publishedWriteups(
  ctx: AppContext,
  challengeIds?: readonly number[],
): Promise<PublishedWriteupEntry[]> {
  const rows = await listWriteups(ctx.database.db, {
    publishedOnly: true,
    ...(challengeIds && { challengeIds }),
  });
  const names = await namesOf(ctx, rows);
  return rows.map((r) => ({
    id: r.id,
    challengeId: r.challenge_id,
    competitorName: names.get(r.competitor)!.name,
    ...(r.url !== null
      ? { url: r.url }
      : { file: { name: r.file_name!, size: r.file_size!, contentType: r.file_type! } }),
    submittedAt: r.submitted_at,
  }));
}

/** READ FUNCTION for the event archive: a published writeup's file bytes, or null (none, unpublished, gone). */
export async function readWriteupFile(
  ctx: AppContext,
  id: number,
): Promise<{ name: string; contentType: string; bytes: Buffer } | null> {
  const row = await findWriteup(ctx.database.db, id);
  if (!row || row.published !== 1 || row.storage_key === null) return null;
  const open = await openWriteupFile(ctx, row.storage_key);
  if (!open) return null;
  try {
    return { name: row.file_name!, contentType: row.file_type!, bytes: await readFile(open.handle) };
  } finally {
    await open.handle.close();
  }
}

/** GET /api/info/writeups: a challenge's published writeups once the event has ended (empty before). */
export async function listPublishedWriteups(
  ctx: AppContext,
  challengeId: number,
): Promise<PublishedWriteup[]> {
  if (!(await hasEventEnded(ctx))) return [];
  return (await publishedWriteups(ctx, [challengeId])).map((w) => ({
    _id: toApiId(w.id),
    challenge_id: toApiId(w.challengeId),
    competitor: w.competitorName,
    ...(w.url !== undefined
      ? { url: w.url }
      : {
          file: {
            name: w.file!.name,
            size: w.file!.size,
            type: w.file!.contentType as 'application/pdf' | 'text/markdown',
            href: playerHref(w.id),
          },
        }),
    submittedAt: w.submittedAt,
  }));
}

/**
 * READ FUNCTION for the event archive: the solutions an ended event may show ('after_end' only:
 * the archive is public), rendered HTML, with each file's name, size and a reader of its
 * bytes (null when the file is gone from disk).
 */
export async function solutionsForArchive(ctx: AppContext): Promise<
  {
    challengeId: number;
    html: string;
    visibility: 'after_end';
    files: { name: string; size: number; read: () => Promise<Buffer | null> }[];
  }[]
> {
  return (await listArchivableSolutions(ctx)).map((s) => ({
    ...s,
    files: s.files.map((f) => ({ ...f, read: () => readUploadedFile(ctx, f.name) })),
  }));
}
