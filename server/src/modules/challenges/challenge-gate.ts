import { MESSAGES } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { DomainError, forbidden, notFound } from '../../lib/errors.js';
import { CachedValue } from '../../lib/invalidation.js';
import { isSiteActive } from '../event-state/event-state.service.js';
import { listChallengesForPlay } from './challenges.repo.js';
import { listChallengeFlags, listPrerequisites, unmetPrerequisites } from './challenge-parts.repo.js';
import { challengeMatcher, type StoredFlag } from './flags.js';
import { competitorOfUser, teamFlagKey, teamFlagMatcher } from './team-flags.js';

/**
 * The gate of play: whether a user may open a challenge, submit its flag or unlock its hints (site
 * open, released, active, prerequisites solved), and the compiled flags it hands the flag check.
 */

export function siteInactive(): DomainError {
  return new DomainError('site_inactive', MESSAGES.siteInactive);
}

/** While the site switch is off, participants may not play; admins work through their own calls. */
export async function assertSiteOpenFor(ctx: AppContext, user: UserRow): Promise<void> {
  if (user.is_admin === 1) return;
  if (!(await isSiteActive(ctx))) throw siteInactive();
}

/** Whether this user may open a challenge in this state (participants only active ones). */
export function assertChallengeOpenFor(user: UserRow, isActive: boolean): void {
  if (!isActive && user.is_admin !== 1) throw forbidden(MESSAGES.challengeInactive);
}

/** Before its release time a challenge exists for admins only. */
export function isReleasedFor(ctx: AppContext, user: UserRow, play: ChallengeForPlay): boolean {
  return user.is_admin === 1 || play.releaseAt === null || play.releaseAt <= ctx.clock.now().getTime();
}

/** The prerequisites the caller's competitor has not solved (none for admins; no read without any). */
export async function unmetFor(ctx: AppContext, user: UserRow, play: ChallengeForPlay): Promise<number[]> {
  if (user.is_admin === 1 || play.prerequisites.length === 0) return [];
  return unmetPrerequisites(ctx.database.db, play.id, user.id, user.team_id);
}

/**
 * Whether a participant may see a challenge's files: released, active and unlocked for them
 * (the download check of the files module). Admins may see every file.
 */
export async function canSeeChallengeContent(ctx: AppContext, user: UserRow, id: number): Promise<boolean> {
  if (user.is_admin === 1) return true;
  const play = (await challengesForPlay(ctx)).get(id);
  if (!play || !play.isActive || !isReleasedFor(ctx, user, play)) return false;
  return (await unmetFor(ctx, user, play)).length === 0;
}

/** What the flag gate knows about a challenge: compiled flags, state and attempt limit. */
export interface ChallengeForPlay {
  id: number;
  /** Whether a submission is this user's right flag (a per-team flag is the user's competitor's). */
  matches: (submitted: string, user: { id: number; team_id: number | null }) => boolean;
  /** Per-team flags: the base (in memory like every flag) and whether the page offers the flag. */
  perTeam: { base: string; onPage: boolean } | null;
  isActive: boolean;
  maxAttempts: number | null;
  /** ms; null: released. */
  releaseAt: number | null;
  /** Ids of the challenges a competitor must have solved first. */
  prerequisites: number[];
  /** The challenge starts a container per team (issue 30). */
  hasInstance: boolean;
}

const playCaches = new WeakMap<AppContext, CachedValue<ReadonlyMap<number, ChallengeForPlay>>>();

/**
 * Every challenge's flag and state, kept in memory for the flag gate: a burst of submissions
 * reads no challenge row. Any challenge write ('challenges': edit, toggle, delete, create) drops
 * it, in this process at once and in the others before their next request.
 */
export function challengesForPlay(ctx: AppContext): Promise<ReadonlyMap<number, ChallengeForPlay>> {
  let cache = playCaches.get(ctx);
  if (!cache) {
    // NOTE: regexes are compiled here, once per fill, never per submission.
    cache = new CachedValue<ReadonlyMap<number, ChallengeForPlay>>(ctx.bus, ['challenges'], async () => {
      const [rows, flags, prerequisites] = await Promise.all([
        listChallengesForPlay(ctx.database.db),
        listChallengeFlags(ctx.database.db),
        listPrerequisites(ctx.database.db),
      ]);
      const key = teamFlagKey(ctx.config.sessionSecret);
      return new Map(
        rows.map((r) => {
          const stored = (flags.get(r.id) ?? []) as StoredFlag[];
          // NOTE: a per-team challenge costs one HMAC per submission; the others compare as before.
          const base = r.per_team === 1 ? (stored[0]?.content ?? null) : null;
          let matches: ChallengeForPlay['matches'];
          if (base === null) matches = challengeMatcher(stored);
          else {
            const own = teamFlagMatcher(key, r.id, base);
            matches = (submitted, user) => own(submitted, competitorOfUser(user));
          }
          return [
            r.id,
            {
              id: r.id,
              matches,
              perTeam: base === null ? null : { base, onPage: r.per_team_on_page === 1 },
              isActive: r.is_active === 1,
              maxAttempts: r.max_attempts,
              releaseAt: r.release_at === null ? null : Date.parse(r.release_at),
              prerequisites: prerequisites.get(r.id) ?? [],
              hasInstance: r.has_instance === 1,
            },
          ] as const;
        }),
      );
    });
    playCaches.set(ctx, cache);
  }
  return cache.get();
}

/**
 * The gate before a flag is compared or a hint unlocked: site open (or admin), challenge known
 * and released (404), active (or admin), prerequisites solved (403). Answers the compiled flags,
 * current as of the last challenge write. A challenge without prerequisites reads nothing.
 */
export async function openChallengeForSubmission(
  ctx: AppContext,
  user: UserRow,
  id: number,
): Promise<ChallengeForPlay> {
  await assertSiteOpenFor(ctx, user);
  const challenge = (await challengesForPlay(ctx)).get(id);
  if (!challenge || !isReleasedFor(ctx, user, challenge)) throw notFound('Challenge not found');
  assertChallengeOpenFor(user, challenge.isActive);
  if ((await unmetFor(ctx, user, challenge)).length > 0) {
    throw new DomainError('locked', MESSAGES.challengeLocked);
  }
  return challenge;
}
