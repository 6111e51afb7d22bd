import type { SolutionInput, SolutionVisibility } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { Executor, UserRow } from '../../db/schema.js';
import { badInput } from '../../lib/errors.js';
import { renderMarkdown } from '../../lib/markdown.js';
import { hasEventEnded } from '../event-state/event-state.service.js';
import { findFileIdsByName } from './challenge-parts.repo.js';
import { workableChallengeIds } from './challenge-owners.js';
import {
  challengesOfSolutionFile,
  competitorSolved,
  findSolution,
  listSolutionFileNames,
  listSolutions,
  replaceSolution,
} from './solutions.repo.js';

/**
 * Official solutions (issue 32, docs/decisions/0013-after-the-event.md): written with the
 * challenge (the form, the API, challenge.yml's `solution` key), rendered through the one Markdown
 * path, shown per visibility. Staff who may edit challenges (admin, author) always see it.
 */

export interface PreparedSolution {
  content: string;
  html: string;
  visibility: SolutionVisibility;
  files: string[];
}

/** The stored form of a solution: undefined leaves the stored one, null removes it. */
export async function prepareSolution(
  input: SolutionInput | null | undefined,
): Promise<PreparedSolution | null | undefined> {
  if (input === undefined || input === null) return input;
  return {
    content: input.content,
    html: await renderMarkdown(input.content),
    visibility: input.visibility,
    files: [...new Set(input.files ?? [])],
  };
}

/** Writes a prepared solution inside the caller's transaction; an unknown file name is a 400. */
export async function writeSolution(
  trx: Executor,
  challengeId: number,
  solution: PreparedSolution | null | undefined,
): Promise<void> {
  if (solution === undefined) return;
  if (solution === null) return replaceSolution(trx, challengeId, null, []);
  const ids = await findFileIdsByName(trx, solution.files);
  const fileIds = solution.files.map((name) => {
    const id = ids.get(name);
    if (id === undefined) throw badInput(`Unknown solution file: ${name}`);
    return id;
  });
  const { content, html, visibility } = solution;
  await replaceSolution(trx, challengeId, { content, html, visibility }, fileIds);
}

/** Every solution as admins see it (View Challenges, the form, the export). */
export async function listSolutionsForAdmin(
  ctx: AppContext,
): Promise<Map<number, { content: string; visibility: SolutionVisibility; files: string[] }>> {
  const db = ctx.database.db;
  const [solutions, files] = await Promise.all([listSolutions(db), listSolutionFileNames(db)]);
  return new Map(
    [...solutions].map(([id, s]) => [
      id,
      { content: s.content, visibility: s.visibility, files: (files.get(id) ?? []).map((f) => f.name) },
    ]),
  );
}

/** Admins see every solution; an author the solutions of the challenges it owns. */
async function editsChallenge(ctx: AppContext, user: UserRow, challengeId: number): Promise<boolean> {
  if (user.role === 'admin') return true;
  if (user.role !== 'author') return false;
  return (await workableChallengeIds(ctx.database.db, user))?.has(challengeId) === true;
}

/** Whether the caller may see a solution of this visibility on this challenge. */
export async function maySeeSolution(
  ctx: AppContext,
  user: UserRow,
  challengeId: number,
  visibility: SolutionVisibility,
): Promise<boolean> {
  if (await editsChallenge(ctx, user, challengeId)) return true;
  if (visibility === 'hidden') return false;
  if (visibility === 'after_end') return hasEventEnded(ctx);
  return competitorSolved(ctx.database.db, challengeId, user.id, user.team_id);
}

/** The solution the caller may see on a challenge's page (rendered HTML and file names), or null. */
export async function solutionFor(
  ctx: AppContext,
  user: UserRow,
  challengeId: number,
): Promise<{ html: string; files: string[] } | null> {
  const solution = await findSolution(ctx.database.db, challengeId);
  if (!solution || !(await maySeeSolution(ctx, user, challengeId, solution.visibility))) return null;
  const files = (await listSolutionFileNames(ctx.database.db, challengeId)).get(challengeId) ?? [];
  return { html: solution.html, files: files.map((f) => f.name) };
}

/** Whether a stored file is a solution file the caller may download (the files module's check). */
export async function maySeeSolutionFile(ctx: AppContext, user: UserRow, fileId: number): Promise<boolean> {
  for (const challengeId of await challengesOfSolutionFile(ctx.database.db, fileId)) {
    const solution = await findSolution(ctx.database.db, challengeId);
    if (solution && (await maySeeSolution(ctx, user, challengeId, solution.visibility))) return true;
  }
  return false;
}

/**
 * The solutions an archive of the ended event may show: 'after_end' ones only, with their files'
 * names and sizes. The archive is public, so a 'solved' solution (meant for those who solved the
 * challenge) stays out of it, as a 'hidden' one does.
 */
export async function listArchivableSolutions(ctx: AppContext): Promise<
  {
    challengeId: number;
    html: string;
    visibility: 'after_end';
    files: { name: string; size: number }[];
  }[]
> {
  const db = ctx.database.db;
  const [solutions, files] = await Promise.all([listSolutions(db), listSolutionFileNames(db)]);
  const out = [];
  for (const [id, s] of [...solutions].sort(([a], [b]) => a - b)) {
    if (s.visibility !== 'after_end') continue;
    out.push({ challengeId: id, html: s.html, visibility: s.visibility, files: files.get(id) ?? [] });
  }
  return out;
}
