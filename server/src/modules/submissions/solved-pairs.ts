import type { AppContext } from '../../context.js';
import { IncrementalValue } from '../../lib/invalidation.js';
import { listSolvedPairs } from './submissions.repo.js';
import { currentSolvePosition, readSolvesSince, type SolveFeedPosition } from '../scoreboard/solve-feed.js';

/** Pairs are kept as one number each: user id above, challenge id in the low bits. */
const CHALLENGE_BITS = 2 ** 22;
const USER_LIMIT = 2 ** 31;

const pairKey = (userId: number, challengeId: number) => userId * CHALLENGE_BITS + challengeId;
const keyable = (userId: number, challengeId: number) =>
  Number.isInteger(userId) &&
  Number.isInteger(challengeId) &&
  userId >= 0 &&
  userId < USER_LIMIT &&
  challengeId >= 0 &&
  challengeId < CHALLENGE_BITS;

/** Who solved what, as of a position of the solve feed. */
interface SolvedPairs {
  keys: Set<number>;
  position: SolveFeedPosition;
}

/** Every solve, read after the feed position (never before it). */
async function buildSolvedPairs(ctx: AppContext): Promise<SolvedPairs> {
  const position = await currentSolvePosition(ctx.database.db, ctx.database.dialect);
  const keys = new Set<number>();
  for (const p of await listSolvedPairs(ctx.database.db)) {
    if (keyable(p.user_id, p.challenge_id)) keys.add(pairKey(p.user_id, p.challenge_id));
  }
  return { keys, position };
}

/**
 * New solves are added to the kept set in place: a pair, once solved, stays solved until solves
 * change otherwise (a removed user or challenge), which the feed reports and sends back to a build.
 */
async function updateSolvedPairs(ctx: AppContext, kept: SolvedPairs): Promise<SolvedPairs> {
  const feed = await readSolvesSince(ctx.database.db, ctx.database.dialect, kept.position);
  if (!feed.consistent) return buildSolvedPairs(ctx);
  for (const s of feed.solves) {
    if (keyable(s.user_id, s.challenge_id)) kept.keys.add(pairKey(s.user_id, s.challenge_id));
  }
  return { keys: kept.keys, position: feed.position };
}

const caches = new WeakMap<AppContext, IncrementalValue<SolvedPairs>>();

function solvedPairs(ctx: AppContext): IncrementalValue<SolvedPairs> {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new IncrementalValue(
      ctx.bus,
      { full: ['challenges', 'solves', 'users'], delta: ['solves-added'] },
      () => buildSolvedPairs(ctx),
      (kept) => updateSolvedPairs(ctx, kept),
    );
    caches.set(ctx, cache);
  }
  return cache;
}

/**
 * Whether the user has solved the challenge, asked before every flag is compared: from memory, so
 * a wrong flag costs no database read. A solve recorded by this process is in it at once
 * (recordSolvedPair); one recorded elsewhere, or a deletion, as soon as the solve feed has been
 * read after its publication, which this check starts but does not wait for. Until then the
 * database stays the judge: its unique rule refuses a second solve.
 */
export async function hasSolvedChallenge(
  ctx: AppContext,
  userId: number,
  challengeId: number,
): Promise<boolean> {
  if (!keyable(userId, challengeId)) return false;
  return (await solvedPairs(ctx).getKept()).keys.has(pairKey(userId, challengeId));
}

/** Marks a solve this process has just recorded, so the user's next flag for it is refused at once. */
export function recordSolvedPair(ctx: AppContext, userId: number, challengeId: number): void {
  if (keyable(userId, challengeId)) solvedPairs(ctx).current?.keys.add(pairKey(userId, challengeId));
}
