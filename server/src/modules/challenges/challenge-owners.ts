import type { Role } from '@ctf/contract';
import type { Executor } from '../../db/schema.js';
import { badInput, forbidden } from '../../lib/errors.js';
import type { AuditActor } from '../audit/audit.service.js';
import { findFileIdsByName } from './challenge-parts.repo.js';
import {
  findExistingUserIds,
  listChallengesOfFiles,
  listOwnedChallengeIds,
} from './challenge-owners.repo.js';

// Who may work on which challenge (docs/decisions/0014-least-privilege.md). An admin (and the
// system: scripts, seeds) works on every challenge; anyone else only on the challenges it owns.
// Every authoring path asks these functions, so the rule is written once.

/** Whoever acts on challenges: the audit actor with the role its session carries. */
export type ChallengeActor = AuditActor & { role?: Role | undefined };

export const NOT_OWNER = 'You can work only on the challenges you own; an admin can add you as an owner.';

/** Admins and the system see every challenge; a user actor without a known role sees none of others'. */
export function seesEveryChallenge(actor: ChallengeActor): boolean {
  return actor.id === null || actor.role === 'admin';
}

/** The ids of the challenges the actor may work on; null: every challenge. */
export async function workableChallengeIds(
  db: Executor,
  actor: ChallengeActor,
): Promise<ReadonlySet<number> | null> {
  if (seesEveryChallenge(actor)) return null;
  return new Set(await listOwnedChallengeIds(db, actor.id!));
}

/** Refuses (403) unless the actor may work on every one of these challenges. */
export async function assertOwnsChallenges(
  db: Executor,
  actor: ChallengeActor,
  ids: readonly number[],
): Promise<void> {
  const owned = await workableChallengeIds(db, actor);
  if (owned !== null && ids.some((id) => !owned.has(id))) throw forbidden(NOT_OWNER);
}

/** Only an admin names owners (403 for anyone else who sends `owner_ids`). */
export function assertMaySetOwners(actor: ChallengeActor, ownerIds: readonly unknown[] | undefined): void {
  if (ownerIds !== undefined && !seesEveryChallenge(actor))
    throw forbidden("Only an admin can set a challenge's owners.");
}

/**
 * The owners a write stores: those an admin named (each an existing user, 400 otherwise), or on a
 * create the creating user; undefined on an update that named none (kept as they are).
 */
export async function ownersToStore(
  db: Executor,
  actor: ChallengeActor,
  ownerIds: readonly number[] | undefined,
  creating: boolean,
): Promise<number[] | undefined> {
  if (ownerIds === undefined) return creating && actor.id !== null ? [actor.id] : undefined;
  const unique = [...new Set(ownerIds)];
  const known = await findExistingUserIds(db, unique);
  const unknown = unique.find((id) => !known.has(id));
  if (unknown !== undefined) throw badInput(`Invalid owner_ids: no user ${unknown}`);
  return unique;
}

/**
 * Whether the actor may read or change these stored files: each challenge that uses one (as a
 * challenge file or a solution file) must be the actor's; a file no challenge uses is anyone's.
 */
export async function mayWorkOnFiles(
  db: Executor,
  actor: ChallengeActor,
  fileIds: readonly number[],
): Promise<boolean> {
  const owned = await workableChallengeIds(db, actor);
  if (owned === null) return true;
  const users = await listChallengesOfFiles(db, fileIds);
  return [...users.values()].every((ids) => ids.every((id) => owned.has(id)));
}

/** The files among these the actor may work on (the Upload tab's list). */
export async function filterWorkableFiles<T extends { id: number }>(
  db: Executor,
  actor: ChallengeActor,
  files: readonly T[],
): Promise<T[]> {
  const owned = await workableChallengeIds(db, actor);
  if (owned === null) return [...files];
  const users = await listChallengesOfFiles(
    db,
    files.map((f) => f.id),
  );
  return files.filter((f) => (users.get(f.id) ?? []).every((id) => owned.has(id)));
}

/** Whether one of the challenges using this file (either way) is the actor's (an owner's download). */
export async function ownsAChallengeOfFile(
  db: Executor,
  actor: ChallengeActor,
  fileId: number,
): Promise<boolean> {
  const owned = await workableChallengeIds(db, actor);
  if (owned === null) return true;
  const users = (await listChallengesOfFiles(db, [fileId])).get(fileId) ?? [];
  return users.some((id) => owned.has(id));
}

/**
 * Refuses (403) to attach, to a challenge or its solution, a stored file that a challenge the
 * actor does not own uses: attaching it would hand its bytes to the actor. Unknown names are left
 * to the write (400).
 */
export async function assertMayAttachFiles(
  db: Executor,
  actor: ChallengeActor,
  names: readonly string[],
): Promise<void> {
  if (seesEveryChallenge(actor) || names.length === 0) return;
  const ids = [...(await findFileIdsByName(db, [...new Set(names)])).values()];
  if (!(await mayWorkOnFiles(db, actor, ids)))
    throw forbidden(
      'A file you attach is used by a challenge you do not own: upload your own copy under another name.',
    );
}
