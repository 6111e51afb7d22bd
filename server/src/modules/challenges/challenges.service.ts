import { nameKey, pointsFor, type AdminChallenge, type ChallengeInput } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/schema.js';
import { badInput, conflict, notFound } from '../../lib/errors.js';
import { sanitizeHtml } from '../../lib/sanitize-html.js';
import { SYSTEM_ACTOR, changedFields, recordAudit, type AuditActor } from '../audit/audit.service.js';
import { columnsFromScoring } from '../scoreboard/scoring-columns.js';
import { getScoreView } from '../scoreboard/scoreboard.service.js';
import { presentAdminChallenge } from './challenges.presenter.js';
import {
  challengeExists,
  deleteChallengeRow,
  findChallengeForAudit,
  findFileIdsByName,
  insertChallenge,
  listChallengeFlags,
  listChallengeNames,
  listChallengeScorings,
  listSolvesWithNames,
  replaceChallengeFiles,
  toggleChallengeActive,
  updateChallengeRow,
  type ChallengeFields,
} from './challenges.repo.js';
import { buildPublicChallenges, compareChallenges, withCurrentValues } from './public-challenges.js';

export {
  getChallengeDetail,
  getPublicChallengeList,
  openChallengeForSubmission,
  type PublicChallengeList,
} from './public-challenges.js';

const CHALLENGE_NOT_FOUND = 'Challenge not found';

/** The stored form of the admin's input: points from difficulty, whatever was sent; clean HTML. */
async function toFields(input: ChallengeInput): Promise<ChallengeFields> {
  return {
    name: input.name,
    description: await sanitizeHtml(input.description),
    category: input.category,
    difficulty: input.difficulty,
    written_by: input.written_by,
    flag: input.flag.trim(),
    points: pointsFor(input.difficulty),
    ...columnsFromScoring(input.scoring ?? { type: 'static' }),
  };
}

/** Resolves attached file names to stored files; an unknown name is the admin's mistake (400). */
async function resolveFiles(trx: Executor, names: readonly string[]): Promise<number[]> {
  const unique = [...new Set(names)];
  const ids = await findFileIdsByName(trx, unique);
  return unique.map((name) => {
    const id = ids.get(name);
    if (id === undefined) throw badInput(`Unknown file: ${name}`);
    return id;
  });
}

/**
 * Names are unique (case- and look-alike-insensitively) because the Solvers view and the
 * completions lists name challenges by name. Checked inside the write transaction.
 */
async function assertNameFree(trx: Executor, name: string, exceptId: number | null): Promise<void> {
  const key = nameKey(name);
  const taken = (await listChallengeNames(trx)).some((c) => c.id !== exceptId && nameKey(c.name) === key);
  if (taken) throw conflict('A challenge with this name already exists.');
}

const challengeTarget = (id: number, name: string) => `challenge '${name}' (#${id})`;

/**
 * Creates a challenge (active from the start). The event-window lock is the admin module's.
 * `actor` is the admin the audit log names (scripts and tests act as the system).
 */
export async function createChallenge(
  ctx: AppContext,
  input: ChallengeInput,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<{ id: number }> {
  const fields = await toFields(input);
  const at = ctx.clock.now();
  const now = at.toISOString();
  const id = await ctx.database.transaction(async (trx) => {
    await assertNameFree(trx, fields.name, null);
    const fileIds = await resolveFiles(trx, input.files);
    const challengeId = await insertChallenge(trx, { ...fields, is_active: 1, created_at: now });
    await replaceChallengeFiles(trx, challengeId, fileIds);
    await recordAudit(trx, {
      actor,
      action: 'challenge.create',
      target: challengeTarget(challengeId, fields.name),
      details: { after: { ...fields, files: [...new Set(input.files)].sort() } },
      at,
    });
    return challengeId;
  });
  ctx.bus.publish('challenges');
  return { id };
}

/** Replaces a challenge's fields and attached files; its solves and ratings stay (404 unknown). */
export async function updateChallenge(
  ctx: AppContext,
  id: number,
  input: ChallengeInput,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<void> {
  const fields = await toFields(input);
  const at = ctx.clock.now();
  const now = at.toISOString();
  await ctx.database.transaction(async (trx) => {
    await assertNameFree(trx, fields.name, id);
    const fileIds = await resolveFiles(trx, input.files);
    const before = await findChallengeForAudit(trx, id);
    if (!before || !(await updateChallengeRow(trx, id, { ...fields, updated_at: now })))
      throw notFound(CHALLENGE_NOT_FOUND);
    await replaceChallengeFiles(trx, id, fileIds);
    const { is_active: _active, ...was } = before;
    await recordAudit(trx, {
      actor,
      action: 'challenge.update',
      target: challengeTarget(id, fields.name),
      details: changedFields(was, { ...fields, files: [...new Set(input.files)].sort() }),
      at,
    });
  });
  ctx.bus.publish('challenges');
}

/** Enables a disabled challenge or disables an enabled one; answers the new state. */
export async function toggleChallengeStatus(
  ctx: AppContext,
  id: number,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<{ is_active: boolean }> {
  const at = ctx.clock.now();
  const active = await ctx.database.transaction(async (trx) => {
    const state = await toggleChallengeActive(trx, id, at.toISOString());
    if (state === null) return null;
    const row = await findChallengeForAudit(trx, id);
    await recordAudit(trx, {
      actor,
      action: 'challenge.toggle',
      target: challengeTarget(id, row?.name ?? '?'),
      details: { before: { is_active: state !== 1 }, after: { is_active: state === 1 } },
      at,
    });
    return state;
  });
  if (active === null) throw notFound(CHALLENGE_NOT_FOUND);
  ctx.bus.publish('challenges');
  return { is_active: active === 1 };
}

/** Deletes a challenge with its solves and ratings; every score is recomputed from what remains. */
export async function deleteChallenge(
  ctx: AppContext,
  id: number,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<void> {
  const at = ctx.clock.now();
  await ctx.database.transaction(async (trx) => {
    const before = await findChallengeForAudit(trx, id);
    if (!before || !(await deleteChallengeRow(trx, id))) throw notFound(CHALLENGE_NOT_FOUND);
    await recordAudit(trx, {
      actor,
      action: 'challenge.delete',
      target: challengeTarget(id, before.name),
      details: { before },
      at,
    });
  });
  ctx.bus.publish('challenges');
  ctx.bus.publish('solves');
  ctx.bus.publish('ratings');
}

/** Whether a challenge with this id exists (other modules' 404s). */
export async function isKnownChallenge(ctx: AppContext, id: number): Promise<boolean> {
  return challengeExists(ctx.database.db, id);
}

/** Every challenge with its flag and scoring, current values live, in list order (admin View Challenges). */
export async function listChallengesForAdmin(ctx: AppContext): Promise<AdminChallenge[]> {
  const db = ctx.database.db;
  const [challenges, flags, scorings, view] = await Promise.all([
    buildPublicChallenges(db),
    listChallengeFlags(db),
    listChallengeScorings(db),
    getScoreView(ctx, { live: true }),
  ]);
  return withCurrentValues(challenges, view.board).map((c) =>
    presentAdminChallenge(c, flags.get(Number(c._id)) ?? '', scorings.get(Number(c._id))),
  );
}

/**
 * Challenge name -> usernames who solved it, in solve order (admin Solvers tab). Every challenge
 * is listed, unsolved ones with an empty list; admins' own solves are shown too.
 */
export async function listSolversByChallenge(ctx: AppContext): Promise<Record<string, string[]>> {
  const db = ctx.database.db;
  const [names, solves] = await Promise.all([listChallengeNames(db), listSolvesWithNames(db)]);
  const byId = new Map<number, string[]>(names.map((c) => [c.id, []]));
  for (const s of solves) byId.get(s.challenge_id)?.push(s.username);
  const sorted = [...names].sort((a, b) => compareChallenges({ ...a, points: 0 }, { ...b, points: 0 }));
  // Object.fromEntries defines own properties, so a challenge named "__proto__" stays a key.
  return Object.fromEntries(sorted.map((c) => [c.name, byId.get(c.id) ?? []]));
}
