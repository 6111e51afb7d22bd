import type { AdminHint, ChallengeHint, HintInput } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { Executor, UserRow } from '../../db/schema.js';
import { badInput } from '../../lib/errors.js';
import { groupBy } from '../../lib/group-by.js';
import { toApiId } from '../../lib/ids.js';
import { CachedValue } from '../../lib/invalidation.js';
import { renderMarkdown } from '../../lib/markdown.js';
import {
  deleteHintsExcept,
  insertHintRow,
  insertUnlockForCurrentCompetitor,
  currentUnlockPosition,
  listHints,
  listUnlockers,
  readUnlocksSince,
  unlockedHintIds,
  updateHintRow,
  type HintRow,
  type NewUnlock,
  type UnlockFeedPosition,
} from './hints.repo.js';

export type { HintRow, NewUnlock, UnlockFeedPosition };

/** Where the unlocks stand now (for a reader about to make a full read: taken before it). */
export async function currentUnlockFeed(ctx: AppContext): Promise<UnlockFeedPosition> {
  return currentUnlockPosition(ctx.database.db);
}

/** The unlocks recorded since a position (the leaderboard applies them like new solves). */
export async function readUnlockFeed(
  ctx: AppContext,
  after: UnlockFeedPosition,
): Promise<{ position: UnlockFeedPosition; unlocks: NewUnlock[]; consistent: boolean }> {
  return readUnlocksSince(ctx.database.db, after);
}

/** A hint ready to store: its Markdown already rendered to clean HTML. */
export interface PreparedHint {
  id: number | null;
  title: string;
  content: string;
  cost: number;
}

/** Renders each hint's Markdown (sanitised) before the write transaction begins. */
export async function prepareHints(hints: readonly HintInput[]): Promise<PreparedHint[]> {
  return Promise.all(
    hints.map(async (h) => ({
      id: h._id === undefined ? null : Number(h._id),
      title: h.title.trim(),
      content: await renderMarkdown(h.content),
      cost: h.cost,
    })),
  );
}

/**
 * Makes a challenge's hints exactly this list, in this order. A hint sent with its `_id` is
 * updated in place, so its unlocks stay; hints left out are deleted with their unlocks (the
 * competitors get those points back). An `_id` of another challenge's hint is refused (400).
 */
export async function writeChallengeHints(
  trx: Executor,
  challengeId: number,
  hints: readonly PreparedHint[],
): Promise<void> {
  const keep = hints.flatMap((h) => (h.id === null ? [] : [h.id]));
  await deleteHintsExcept(trx, challengeId, keep);
  for (const [position, h] of hints.entries()) {
    const fields = { position, title: h.title, content: h.content, cost: h.cost };
    if (h.id === null) await insertHintRow(trx, { challenge_id: challengeId, ...fields });
    else if (!(await updateHintRow(trx, challengeId, h.id, fields))) {
      throw badInput(`Invalid hints.${position}._id: not a hint of this challenge`);
    }
  }
}

const hintCaches = new WeakMap<AppContext, CachedValue<ReadonlyMap<number, HintRow[]>>>();

/** Every hint by challenge, kept in memory; any challenge write (hints are saved with it) drops it. */
function hintsByChallenge(ctx: AppContext): Promise<ReadonlyMap<number, HintRow[]>> {
  let cache = hintCaches.get(ctx);
  if (!cache) {
    cache = new CachedValue<ReadonlyMap<number, HintRow[]>>(ctx.bus, ['challenges'], async () =>
      groupBy(
        await listHints(ctx.database.db),
        (h) => h.challenge_id,
        (h) => h,
      ),
    );
    hintCaches.set(ctx, cache);
  }
  return cache.get();
}

/** The competitor an unlock belongs to: the user's team now, or the user with no team. */
function competitorOf(user: UserRow): string {
  return user.team_id === null ? `u${user.id}` : `t${user.team_id}`;
}

/**
 * A challenge's hints as the caller may see them: content only of those the caller's competitor
 * unlocked. Admins see every hint's content (they also see the flags).
 */
export async function hintsForCompetitor(
  ctx: AppContext,
  user: UserRow,
  challengeId: number,
): Promise<ChallengeHint[]> {
  const hints = (await hintsByChallenge(ctx)).get(challengeId) ?? [];
  if (hints.length === 0) return [];
  const isAdmin = user.is_admin === 1;
  const unlocked = isAdmin
    ? new Set(hints.map((h) => h.id))
    : await unlockedHintIds(
        ctx.database.db,
        competitorOf(user),
        hints.map((h) => h.id),
      );
  return hints.map((h) =>
    unlocked.has(h.id)
      ? { _id: toApiId(h.id), title: h.title, cost: h.cost, unlocked: true, content: h.content }
      : { _id: toApiId(h.id), title: h.title, cost: h.cost, unlocked: false },
  );
}

/** Every challenge's hints with content and who unlocked them (admin View Challenges). */
export async function listHintsForAdmin(ctx: AppContext): Promise<Map<number, AdminHint[]>> {
  const [hints, unlockers] = await Promise.all([hintsByChallenge(ctx), listUnlockers(ctx.database.db)]);
  const byHint = groupBy(
    unlockers,
    (u) => u.hint_id,
    (u) => u.username,
  );
  const out = new Map<number, AdminHint[]>();
  for (const [challengeId, list] of hints) {
    out.set(
      challengeId,
      list.map((h) => ({
        _id: toApiId(h.id),
        title: h.title,
        content: h.content,
        cost: h.cost,
        unlocked_by: byHint.get(h.id) ?? [],
      })),
    );
  }
  return out;
}

/** A hint by its id (from the kept hints), or undefined. */
export async function findHint(ctx: AppContext, hintId: number): Promise<HintRow | undefined> {
  for (const list of (await hintsByChallenge(ctx)).values()) {
    const hint = list.find((h) => h.id === hintId);
    if (hint) return hint;
  }
  return undefined;
}

/**
 * Records a hint's unlock for the user's competitor. NOTE: recorded once per (hint, competitor) by
 * the database's unique rule, in the statement that reads the caller's team, so a repeat or 50
 * parallel requests cost once and the unlock never moves when the user later changes team.
 */
export async function recordHintUnlock(ctx: AppContext, user: UserRow, hint: HintRow): Promise<void> {
  const recorded = await insertUnlockForCurrentCompetitor(ctx.database.db, {
    hintId: hint.id,
    userId: user.id,
    createdAt: ctx.clock.now().toISOString(),
  });
  if (recorded) {
    ctx.bus.publish('unlocks-added');
    void ctx.domainEvents.emit('hint.unlocked', { hintId: hint.id, userId: user.id });
  }
}
