import {
  flagsOf,
  instancePolicyProblem,
  instancesApi,
  nameKey,
  pointsFor,
  type ChallengeInput,
  type InstancePolicy,
} from '@ctf/contract';
import type { Executor } from '../../db/schema.js';
import { badInput, conflict, notFound } from '../../lib/errors.js';
import { sanitizeHtml } from '../../lib/sanitize-html.js';
import { changedFields, recordAudit } from '../audit/audit.service.js';
import { columnsFromScoring } from '../scoreboard/scoring-columns.js';
import { prepareHints, writeChallengeHints, type PreparedHint } from '../hints/hints.service.js';
import {
  findChallengeForAudit,
  insertChallenge,
  listChallengeNames,
  updateChallengeRow,
  type ChallengeFields,
  type OptionalChallengeFields,
} from './challenges.repo.js';
import {
  findFileIdsByName,
  listPrerequisites,
  replaceChallengeFiles,
  replaceChallengeFlags,
  replacePrerequisites,
} from './challenge-parts.repo.js';
import { TEAM_FLAG_BASE_MAX_LENGTH, TEAM_FLAG_EXTRA_LENGTH } from './team-flags.js';
import { normaliseFlags, type StoredFlag } from './flags.js';
import { prepareSolution, writeSolution, type PreparedSolution } from './solutions.js';
import {
  assertMayAttachFiles,
  assertMaySetOwners,
  assertOwnsChallenges,
  ownersToStore,
  type ChallengeActor,
} from './challenge-owners.js';
import { listOwnerIdsOf, replaceChallengeOwners } from './challenge-owners.repo.js';

// The write of one challenge, inside the caller's transaction: the admin's input checked and put
// in stored form, the row and its parts written, the audit row recorded. Create and Update
// Challenge (challenges.service.ts) and the challenge.yml import share it.

export const CHALLENGE_NOT_FOUND = 'Challenge not found';

/** The admin's input in stored form, before the transaction: checked flags, rendered hints. */
export interface PreparedChallenge {
  fields: Omit<ChallengeFields, OptionalChallengeFields> &
    Partial<Pick<ChallengeFields, OptionalChallengeFields>>;
  flags: StoredFlag[];
  /** null: leave the stored ones (an update that did not send them). */
  hints: PreparedHint[] | null;
  prerequisites: number[] | null;
  /** The official solution (issue 32): undefined leaves the stored one, null removes it. */
  solution?: PreparedSolution | null | undefined;
}

/** A time as stored: ISO 8601 UTC (the input may carry any offset). */
export function toUtc(iso: string | null | undefined): string | null | undefined {
  return iso ? new Date(iso).toISOString() : iso;
}

/**
 * An instance definition as stored: JSON of the contract's parsed form (its defaults filled), so
 * every reader gets the same shape whether it came from the form, the API or a challenge.yml.
 * Beyond the operator's policy (INSTANCE_*): 400 naming the field and the limit.
 */
function storedInstance(instance: ChallengeInput['instance'], policy: InstancePolicy): string | null {
  if (instance === null || instance === undefined) return null;
  const parsed = instancesApi.InstanceDefinition.safeParse(instance);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw badInput(`Invalid instance.${issue.path.join('.')}: ${issue.message}`);
  }
  const problem = instancePolicyProblem(parsed.data, policy);
  if (problem) throw badInput(problem);
  return JSON.stringify(parsed.data);
}

/**
 * The stored form of the admin's input: points from difficulty, whatever was sent; clean HTML;
 * flags checked (a bad regex is refused here, 400); hint Markdown rendered and cleaned.
 */
export async function prepareChallenge(
  input: ChallengeInput,
  policy: InstancePolicy,
): Promise<PreparedChallenge> {
  const flags = normaliseFlags(flagsOf(input));
  if (flags.length === 0) throw badInput('Invalid flags: Flag is required');
  return {
    fields: {
      name: input.name.trim(),
      description: await sanitizeHtml(input.description ?? ''),
      category: input.category,
      difficulty: input.difficulty,
      written_by: input.written_by.trim(),
      points: pointsFor(input.difficulty),
      ...columnsFromScoring(input.scoring ?? { type: 'static' }),
      ...(input.max_attempts !== undefined && { max_attempts: input.max_attempts }),
      ...(input.release_at !== undefined && { release_at: toUtc(input.release_at) ?? null }),
      ...(input.per_team !== undefined && { per_team: input.per_team ? 1 : 0 }),
      ...(input.per_team_on_page !== undefined && { per_team_on_page: input.per_team_on_page ? 1 : 0 }),
      ...(input.instance !== undefined && { instance: storedInstance(input.instance, policy) }),
    },
    flags,
    hints: input.hints === undefined ? null : await prepareHints(input.hints),
    prerequisites:
      input.prerequisites === undefined ? null : [...new Set(input.prerequisites.map((p) => Number(p)))],
    solution: await prepareSolution(input.solution),
  };
}

/**
 * The per-team columns as they will be stored, from the body and (on an update that omits them)
 * the stored row. A per-team challenge has exactly one static flag, its base, short enough for
 * the suffix; only a per-team challenge may offer the flag on its page (turning per-team off turns
 * that off too). 400 naming the field.
 */
function settlePerTeam(
  prepared: PreparedChallenge,
  stored: { per_team: number; per_team_on_page: number } | null,
): { per_team: number; per_team_on_page: number } {
  const perTeam = prepared.fields.per_team ?? stored?.per_team ?? 0;
  const onPage = prepared.fields.per_team_on_page ?? stored?.per_team_on_page ?? 0;
  if (perTeam === 0) {
    if (prepared.fields.per_team_on_page === 1)
      throw badInput(
        'Invalid per_team_on_page: only a challenge with per-team flags can offer one on its page',
      );
    return { per_team: 0, per_team_on_page: 0 };
  }
  const [base, ...rest] = prepared.flags;
  if (!base || rest.length > 0 || base.type !== 'static')
    throw badInput(
      "Invalid flags: a challenge with per-team flags takes exactly one static flag, the base of every competitor's own",
    );
  if (base.content.length > TEAM_FLAG_BASE_MAX_LENGTH)
    throw badInput(
      `Invalid flags.0: a per-team base must be at most ${TEAM_FLAG_BASE_MAX_LENGTH} characters (the suffix adds ${TEAM_FLAG_EXTRA_LENGTH})`,
    );
  return { per_team: 1, per_team_on_page: onPage };
}

/** Writes what goes beside the row: flags, files, hints and prerequisites (when sent). */
async function writeParts(trx: Executor, id: number, prepared: PreparedChallenge, files: readonly string[]) {
  const fileIds = await resolveFiles(trx, files);
  await replaceChallengeFiles(trx, id, fileIds);
  await replaceChallengeFlags(trx, id, prepared.flags);
  if (prepared.hints) await writeChallengeHints(trx, id, prepared.hints);
  if (prepared.prerequisites) await writePrerequisites(trx, id, prepared.prerequisites);
  await writeSolution(trx, id, prepared.solution);
}

/**
 * Makes a challenge's prerequisites exactly these (inside the caller's transaction): unknown ids,
 * the challenge itself and cycles are refused (400). The import sets them after every challenge of
 * its archive exists.
 */
export async function writePrerequisites(trx: Executor, id: number, prerequisites: readonly number[]) {
  if (prerequisites.includes(id)) throw badInput('Invalid prerequisites: a challenge cannot require itself');
  const known = new Set((await listChallengeNames(trx)).map((c) => c.id));
  const unknown = prerequisites.find((p) => !known.has(p));
  if (unknown !== undefined) throw badInput(`Invalid prerequisites: unknown challenge ${unknown}`);
  await replacePrerequisites(trx, id, prerequisites);
  if (requiresItself(await listPrerequisites(trx), id)) {
    throw badInput('Invalid prerequisites: they would form a cycle (a challenge would require itself)');
  }
}

/** Whether following prerequisites from a challenge leads back to it (it could never open). */
function requiresItself(graph: ReadonlyMap<number, number[]>, start: number): boolean {
  const seen = new Set<number>();
  const stack = [...(graph.get(start) ?? [])];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next === start) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...(graph.get(next) ?? []));
  }
  return false;
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
export const challengeTarget = (id: number, name: string) => `challenge '${name}' (#${id})`;

/** What the audit log records of an admin's input (flags are redacted by the log itself). */
function auditView(
  prepared: PreparedChallenge,
  files: readonly string[],
  perTeam: { per_team: number; per_team_on_page: number },
) {
  return {
    ...prepared.fields,
    ...perTeam,
    flags: prepared.flags,
    files: [...new Set(files)].sort(),
    ...(prepared.prerequisites && { prerequisites: [...prepared.prerequisites].sort((a, b) => a - b) }),
    ...(prepared.hints && { hints: prepared.hints.map((h) => ({ title: h.title, cost: h.cost })) }),
    ...(prepared.solution !== undefined && {
      solution: prepared.solution && {
        visibility: prepared.solution.visibility,
        files: prepared.solution.files,
      },
    }),
  };
}
/** Who writes and when, and (import: `state`) whether the challenge is active afterwards. */
export interface WriteOptions {
  actor: ChallengeActor;
  at: Date;
  /** An admin's `owner_ids` (anyone else is refused); absent: the creator, or kept on an update. */
  ownerIds?: readonly number[] | undefined;
  /** Create: active unless false. Update: left as it is when undefined. */
  isActive?: boolean;
}

/**
 * The one write of a new challenge, inside the caller's transaction (Create Challenge and the
 * challenge.yml import): the name is checked free, the row and its parts written, the audit row
 * recorded. The caller publishes 'challenges' after its commit.
 */
export async function insertPreparedChallenge(
  trx: Executor,
  prepared: PreparedChallenge,
  files: readonly string[],
  options: WriteOptions,
): Promise<number> {
  const { actor, at } = options;
  assertMaySetOwners(actor, options.ownerIds);
  await assertMayAttachFiles(trx, actor, [...files, ...(prepared.solution?.files ?? [])]);
  const perTeam = settlePerTeam(prepared, null);
  await assertNameFree(trx, prepared.fields.name, null);
  const owners = await ownersToStore(trx, actor, options.ownerIds, true);
  const challengeId = await insertChallenge(trx, {
    max_attempts: null,
    release_at: null,
    instance: null,
    ...prepared.fields,
    ...perTeam,
    is_active: options.isActive === false ? 0 : 1,
    created_at: at.toISOString(),
  });
  await writeParts(trx, challengeId, prepared, files);
  if (owners) await replaceChallengeOwners(trx, challengeId, owners);
  await recordAudit(trx, {
    actor,
    action: 'challenge.create',
    target: challengeTarget(challengeId, prepared.fields.name),
    details: {
      after: {
        ...auditView(prepared, files, perTeam),
        ...(owners && { owners }),
        ...(options.isActive === false && { is_active: false }),
      },
    },
    at,
  });
  return challengeId;
}
/** The one write of an edit, inside the caller's transaction (Update Challenge and the import). */
export async function updatePreparedChallenge(
  trx: Executor,
  id: number,
  prepared: PreparedChallenge,
  files: readonly string[],
  options: WriteOptions,
): Promise<void> {
  const { actor, at } = options;
  await assertOwnsChallenges(trx, actor, [id]);
  assertMaySetOwners(actor, options.ownerIds);
  await assertMayAttachFiles(trx, actor, [...files, ...(prepared.solution?.files ?? [])]);
  await assertNameFree(trx, prepared.fields.name, id);
  const before = await findChallengeForAudit(trx, id);
  if (!before) throw notFound(CHALLENGE_NOT_FOUND);
  const owners = await ownersToStore(trx, actor, options.ownerIds, false);
  const perTeam = settlePerTeam(prepared, before);
  const active = options.isActive === undefined ? {} : { is_active: options.isActive ? 1 : 0 };
  const fields = { ...prepared.fields, ...perTeam, ...active, updated_at: at.toISOString() };
  if (!(await updateChallengeRow(trx, id, fields))) throw notFound(CHALLENGE_NOT_FOUND);
  const ownersBefore = owners && (await listOwnerIdsOf(trx, id));
  await writeParts(trx, id, prepared, files);
  if (owners) await replaceChallengeOwners(trx, id, owners);
  // Compared on what the body set: an omitted field (kept as it is) is no change.
  const after: Record<string, unknown> = {
    ...auditView(prepared, files, perTeam),
    ...(options.isActive !== undefined && { is_active: active.is_active }),
    ...(owners && { owners: [...owners].sort((a, b) => a - b) }),
  };
  const was = Object.fromEntries(
    Object.entries({ ...before, ...(ownersBefore && { owners: ownersBefore }) }).filter(([k]) => k in after),
  );
  await recordAudit(trx, {
    actor,
    action: 'challenge.update',
    target: challengeTarget(id, prepared.fields.name),
    details: changedFields(was, after),
    at,
  });
}
