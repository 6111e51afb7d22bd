import type { AdminChallenge, ChallengeInput, InstanceDefinition } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { notFound } from '../../lib/errors.js';
import { SYSTEM_ACTOR, recordAudit } from '../audit/audit.service.js';
import { getScoreView } from '../scoreboard/scoreboard.service.js';
import { listHintsForAdmin } from '../hints/hints.service.js';
import { presentAdminChallenge } from './challenges.presenter.js';
import {
  challengeExists,
  countChallenges,
  deleteChallengeRow,
  findChallengeForAudit,
  listAuthoringFields,
  listChallengeNames,
  listChallengeScorings,
  setReleaseTimes,
  toggleChallengeActive,
} from './challenges.repo.js';
import { listChallengeFlags, listPrerequisites } from './challenge-parts.repo.js';
import { claimAttempt, listFirstBloods, listSolvesWithNames } from './challenge-solves.repo.js';
import {
  CHALLENGE_NOT_FOUND,
  challengeTarget,
  insertPreparedChallenge,
  prepareChallenge,
  toUtc,
  updatePreparedChallenge,
} from './challenge-writes.js';
import type { StoredFlag } from './flags.js';
import { withCurrentValues } from './challenge-views.js';
import { buildPublicChallenges, compareChallenges } from './public-list.js';
import { listSolutionsForAdmin } from './solutions.js';
import { assertOwnsChallenges, workableChallengeIds, type ChallengeActor } from './challenge-owners.js';
import { listChallengeOwners } from './challenge-owners.repo.js';

export {
  NOT_OWNER,
  assertOwnsChallenges,
  filterWorkableFiles,
  mayWorkOnFiles,
  ownsAChallengeOfFile,
  seesEveryChallenge,
  workableChallengeIds,
  type ChallengeActor,
} from './challenge-owners.js';

export { getChallengeDetail, getPublicChallengeList } from './challenge-views.js';
export {
  canSeeChallengeContent,
  openChallengeForSubmission,
  type ChallengeForPlay,
} from './challenge-gate.js';
export { knownFirstBlood, type PublicChallengeList } from './public-list.js';
export { adminOnlyInstanceChanges } from './instance-fields.js';
export { listReleasedChallenges } from './released-list.js';

/** Claims one of the user's attempts at a limited challenge; false when none is left. */
export async function claimChallengeAttempt(
  ctx: AppContext,
  userId: number,
  challenge: { id: number; maxAttempts: number | null },
): Promise<boolean> {
  if (challenge.maxAttempts === null) return true;
  return claimAttempt(ctx.database.db, userId, challenge.id, challenge.maxAttempts);
}

/**
 * Sets the release time of several challenges at once (a wave), or clears it (null: released
 * now). Unknown ids are the admin's mistake (404, nothing changed).
 */
export async function scheduleRelease(
  ctx: AppContext,
  input: { ids: readonly number[]; releaseAt: string | null },
  actor: ChallengeActor = SYSTEM_ACTOR,
): Promise<number> {
  const ids = [...new Set(input.ids)];
  const releaseAt = toUtc(input.releaseAt) ?? null;
  const at = ctx.clock.now();
  await ctx.database.transaction(async (trx) => {
    const known = new Map((await listChallengeNames(trx)).map((c) => [c.id, c.name]));
    const unknown = ids.find((id) => !known.has(id));
    if (unknown !== undefined) throw notFound(`Challenge not found: ${unknown}`);
    await assertOwnsChallenges(trx, actor, ids);
    await setReleaseTimes(trx, ids, releaseAt, at.toISOString());
    await recordAudit(trx, {
      actor,
      action: 'challenge.schedule',
      target: ids.map((id) => challengeTarget(id, known.get(id)!)).join(', '),
      details: { after: { release_at: releaseAt, challenges: ids } },
      at,
    });
  });
  ctx.bus.publish('challenges');
  return ids.length;
}
/**
 * Creates a challenge (active from the start). The event-window lock is the admin module's.
 * `actor` is the admin the audit log names (scripts and tests act as the system).
 */
export async function createChallenge(
  ctx: AppContext,
  input: ChallengeInput,
  actor: ChallengeActor = SYSTEM_ACTOR,
): Promise<{ id: number }> {
  const prepared = await prepareChallenge(input, ctx.config.instances.policy);
  const at = ctx.clock.now();
  const ownerIds = input.owner_ids?.map(Number);
  const id = await ctx.database.transaction((trx) =>
    insertPreparedChallenge(trx, prepared, input.files ?? [], { actor, at, ownerIds }),
  );
  ctx.bus.publish('challenges');
  return { id };
}
/** Replaces a challenge's fields and attached files; its solves and ratings stay (404 unknown). */
export async function updateChallenge(
  ctx: AppContext,
  id: number,
  input: ChallengeInput,
  actor: ChallengeActor = SYSTEM_ACTOR,
): Promise<void> {
  const prepared = await prepareChallenge(input, ctx.config.instances.policy);
  const at = ctx.clock.now();
  const ownerIds = input.owner_ids?.map(Number);
  await ctx.database.transaction((trx) =>
    updatePreparedChallenge(trx, id, prepared, input.files ?? [], { actor, at, ownerIds }),
  );
  ctx.bus.publish('challenges');
}
/** Enables a disabled challenge or disables an enabled one; answers the new state. */
export async function toggleChallengeStatus(
  ctx: AppContext,
  id: number,
  actor: ChallengeActor = SYSTEM_ACTOR,
): Promise<{ is_active: boolean }> {
  const at = ctx.clock.now();
  const active = await ctx.database.transaction(async (trx) => {
    if (await challengeExists(trx, id)) await assertOwnsChallenges(trx, actor, [id]);
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
  actor: ChallengeActor = SYSTEM_ACTOR,
): Promise<void> {
  const at = ctx.clock.now();
  await ctx.database.transaction(async (trx) => {
    const before = await findChallengeForAudit(trx, id);
    if (!before) throw notFound(CHALLENGE_NOT_FOUND);
    await assertOwnsChallenges(trx, actor, [id]);
    if (!(await deleteChallengeRow(trx, id))) throw notFound(CHALLENGE_NOT_FOUND);
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

/** How many challenges the site has (hidden and unreleased ones too). */
export async function challengeCount(ctx: AppContext): Promise<number> {
  return countChallenges(ctx.database.db);
}

/** Whether a challenge with this id exists (other modules' 404s). */
export async function isKnownChallenge(ctx: AppContext, id: number): Promise<boolean> {
  return challengeExists(ctx.database.db, id);
}

/**
 * Every challenge the viewer may work on (an admin: all; an author: those it owns) with its flags,
 * hints, schedule, scoring and owners, in list order (admin View Challenges, the export).
 */
export async function listChallengesForAdmin(
  ctx: AppContext,
  viewer: ChallengeActor = SYSTEM_ACTOR,
): Promise<AdminChallenge[]> {
  const db = ctx.database.db;
  const workable = await workableChallengeIds(db, viewer);
  const [challenges, flags, authoring, hints, prerequisites, scorings, view, solutions, owners] =
    await Promise.all([
      buildPublicChallenges(db),
      listChallengeFlags(db),
      listAuthoringFields(db),
      listHintsForAdmin(ctx),
      listPrerequisites(db),
      listChallengeScorings(db),
      getScoreView(ctx, { live: true }),
      listSolutionsForAdmin(ctx),
      listChallengeOwners(db),
    ]);
  // Current values live (admins never see a frozen board).
  const shown = workable === null ? challenges : challenges.filter((c) => workable.has(Number(c._id)));
  return withCurrentValues(shown, view.board).map((c) => {
    const id = Number(c._id);
    const a = authoring.get(id);
    return presentAdminChallenge(c, {
      flags: (flags.get(id) ?? []) as StoredFlag[],
      per_team: a?.per_team === 1,
      per_team_on_page: a?.per_team_on_page === 1,
      instance: a?.instance ? (JSON.parse(a.instance) as InstanceDefinition) : null,
      max_attempts: a?.max_attempts ?? null,
      release_at: a?.release_at ?? null,
      hints: hints.get(id) ?? [],
      prerequisites: prerequisites.get(id) ?? [],
      scoring: scorings.get(id),
      solution: solutions.get(id) ?? null,
      owners: owners.get(id) ?? [],
    });
  });
}

/**
 * Challenge name -> usernames who solved it, in solve order (admin Solvers tab). Every challenge
 * is listed, unsolved ones with an empty list; admins' own solves are shown too.
 */
export async function listSolversByChallenge(
  ctx: AppContext,
): Promise<{ solvers: Record<string, string[]>; first_bloods: Record<string, string> }> {
  const db = ctx.database.db;
  const [names, solves, bloods] = await Promise.all([
    listChallengeNames(db),
    listSolvesWithNames(db),
    listFirstBloods(db),
  ]);
  const byId = new Map<number, string[]>(names.map((c) => [c.id, []]));
  for (const s of solves) byId.get(s.challenge_id)?.push(s.username);
  const bloodById = new Map(bloods.map((b) => [b.challenge_id, b.username]));
  const sorted = [...names].sort((a, b) => compareChallenges({ ...a, points: 0 }, { ...b, points: 0 }));
  // Object.fromEntries defines own properties, so a challenge named "__proto__" stays a key.
  return {
    solvers: Object.fromEntries(sorted.map((c) => [c.name, byId.get(c.id) ?? []])),
    first_bloods: Object.fromEntries(
      sorted.filter((c) => bloodById.has(c.id)).map((c) => [c.name, bloodById.get(c.id)!]),
    ),
  };
}

export { anyPatternMatcher, flagMatcher, type FlagMatcher, type StoredFlag } from './flags.js';

/**
 * Every challenge's flags (the submission log tells when a wrong attempt is another's flag), and
 * the ids of the per-team challenges, whose one flag is a base that nobody's flag equals.
 */
export async function listAllFlags(
  ctx: AppContext,
): Promise<{ flags: Map<number, StoredFlag[]>; perTeam: Set<number> }> {
  const db = ctx.database.db;
  const [flags, authoring] = await Promise.all([listChallengeFlags(db), listAuthoringFields(db)]);
  const perTeam = new Set([...authoring].filter(([, a]) => a.per_team === 1).map(([id]) => id));
  return { flags: flags as Map<number, StoredFlag[]>, perTeam };
}

export { listCompetitors } from './team-flags.repo.js';
export {
  listArchivableSolutions,
  listSolutionsForAdmin,
  maySeeSolution,
  maySeeSolutionFile,
} from './solutions.js';
export { competitorSolved } from './solutions.repo.js';
export {
  competitorOfUser,
  ownerOfSuffix,
  teamFlagKey,
  teamFlagSuffixOf,
  type Competitor,
} from './team-flags.js';

/** Every challenge's id and name (the challenge.yml import matches an archive's names with them). */
export async function listChallengeNamesOf(ctx: AppContext): Promise<{ id: number; name: string }[]> {
  return listChallengeNames(ctx.database.db);
}
