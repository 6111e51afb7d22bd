import type { AppContext } from '../server/src/context.js';
import { getLeaderboard } from '../server/src/modules/leaderboard/leaderboard.service.js';
import { ScoreBoard, type BoardSolve } from '../server/src/modules/scoreboard/score-board.js';
import { readBoardSnapshot } from '../server/src/modules/scoreboard/scoreboard.repo.js';
import { getScoreView } from '../server/src/modules/scoreboard/scoreboard.service.js';
import { submitFlag } from '../server/src/modules/submissions/submissions.service.js';
import type { SeededEvent } from './seed.js';

/**
 * What a correct flag costs the scoreboard (issue 16: "O(what changed), not a rebuild of 50,000
 * solves"), measured in-process on a freshly seeded event through the product's own functions,
 * with no load running. Medians over SAMPLES correct flags (after WARM_UP unrecorded ones):
 *
 * - rebuild: what a rebuild would cost, the snapshot read (every solve) plus the board built from it;
 * - flag: the correct flag itself (submitFlag: the gate, the solve and its log row, the publication);
 * - update: the live board brought up to date after it (the solve feed read and applied);
 * - answer: the leaderboard's answer made again from the updated board (once per change);
 * - apply: the in-memory apply of one new solve alone, on a static and on a dynamic challenge
 *   (a dynamic one re-totals every competitor credited with it: what changed is its solvers).
 *
 * O(what changed) shows as update and apply far below rebuild, and not growing with the solves
 * the way rebuild does (the doubled event).
 */
export interface BoardCost {
  /** Solves in the event when measured. */
  solves: number;
  /** Competitors on the board. */
  competitors: number;
  samples: number;
  rebuildMs: number;
  /** The in-memory part of a rebuild (ScoreBoard built from the snapshot already read). */
  buildInMemoryMs: number;
  flagMs: number;
  updateMs: number;
  answerMs: number;
  applyStaticMs: number;
  /** NaN when the event has no dynamic challenge. */
  applyDynamicMs: number;
  /** Median solvers of the dynamic challenges applied to (the rows a dynamic apply re-totals). */
  dynamicSolvers: number;
}

const WARM_UP = 4;
const SAMPLES = 20;
const REBUILDS = 3;

const median = (xs: number[]) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

interface Pair {
  userId: number;
  teamId: number | null;
  challengeId: number;
  dynamic: boolean;
}

/**
 * Session users with a challenge they have not solved, alternately dynamic and static ones, the
 * most solved first (a dynamic one's move then re-totals the most rows: the worst case).
 */
async function unsolvedPairs(
  ctx: AppContext,
  event: SeededEvent,
  solvesOf: Map<number, number>,
  count: number,
): Promise<Pair[]> {
  const db = ctx.database.db;
  const userIds = [...new Set(event.sessions.map((s) => s.userId))];
  const solved = new Set(
    (
      await db
        .selectFrom('solves')
        .select(['user_id', 'challenge_id'])
        .where('user_id', 'in', userIds)
        .execute()
    ).map((r) => `${r.user_id}:${r.challenge_id}`),
  );
  const teams = new Map(
    (await db.selectFrom('users').select(['id', 'team_id']).where('id', 'in', userIds).execute()).map((r) => [
      r.id,
      r.team_id,
    ]),
  );
  const dynamic = new Set(event.dynamicChallengeIds);
  const byPopularity = (ids: number[]) =>
    [...ids].sort((a, b) => (solvesOf.get(b) ?? 0) - (solvesOf.get(a) ?? 0));
  const statics = byPopularity(event.challengeIds.filter((id) => !dynamic.has(id)));
  const pools = dynamic.size > 0 ? [byPopularity([...dynamic]), statics] : [statics];
  const pairs: Pair[] = [];
  const taken = new Set<string>();
  for (let i = 0; pairs.length < count && i < userIds.length * 4; i++) {
    const userId = userIds[i % userIds.length]!;
    const pool = pools[pairs.length % pools.length]!;
    const challengeId = pool.find((c) => !solved.has(`${userId}:${c}`) && !taken.has(`${userId}:${c}`));
    if (challengeId === undefined) continue;
    taken.add(`${userId}:${challengeId}`);
    pairs.push({ userId, teamId: teams.get(userId) ?? null, challengeId, dynamic: dynamic.has(challengeId) });
  }
  return pairs;
}

export async function measureBoardCost(ctx: AppContext, event: SeededEvent): Promise<BoardCost> {
  const db = ctx.database.db;
  let snapshot = await readBoardSnapshot(db, null);
  const solvesOf = new Map<number, number>();
  for (const s of snapshot.solves) solvesOf.set(s.challenge_id, (solvesOf.get(s.challenge_id) ?? 0) + 1);
  const pairs = await unsolvedPairs(ctx, event, solvesOf, WARM_UP + SAMPLES);
  if (pairs.length === 0) throw new Error('board cost: no unsolved (user, challenge) pair to submit');

  // A rebuild, as the board makes one after a removal or an edit.
  const rebuild: number[] = [];
  const inMemory: number[] = [];
  for (let i = 0; i < REBUILDS; i++) {
    const t0 = process.hrtime.bigint();
    snapshot = await readBoardSnapshot(db, null);
    const t1 = process.hrtime.bigint();
    new ScoreBoard(snapshot, null);
    inMemory.push(ms(t1));
    rebuild.push(ms(t0));
  }

  // The in-memory apply alone, on a board of its own (nothing is written).
  const board = new ScoreBoard(snapshot, null);
  let nextId = snapshot.solves.reduce((m, s) => Math.max(m, s.id), 0) + 1;
  const applyStatic: number[] = [];
  const applyDynamic: number[] = [];
  const dynamicSolvers: number[] = [];
  for (const [i, p] of pairs.entries()) {
    const solve: BoardSolve = {
      id: nextId++,
      user_id: p.userId,
      team_id: p.teamId,
      challenge_id: p.challengeId,
      created_at: new Date().toISOString(),
    };
    const solvers = board.counts.get(p.challengeId) ?? 0;
    const t0 = process.hrtime.bigint();
    if (!board.apply([solve])) throw new Error('board cost: the board refused a seeded user');
    const t = ms(t0);
    if (i < WARM_UP) continue;
    if (p.dynamic) {
      applyDynamic.push(t);
      dynamicSolvers.push(solvers);
    } else applyStatic.push(t);
  }

  // The product's path: a correct flag, then the live board and the leaderboard's answer after it.
  const flag: number[] = [];
  const update: number[] = [];
  const answer: number[] = [];
  await getLeaderboard(ctx);
  for (const [i, p] of pairs.entries()) {
    const user = await db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', p.userId)
      .executeTakeFirstOrThrow();
    const t0 = process.hrtime.bigint();
    const { message } = await submitFlag(ctx, user, {
      challengeId: p.challengeId,
      flag: event.flags.get(p.challengeId)!,
      address: '127.0.0.1',
    });
    const t1 = process.hrtime.bigint();
    await getScoreView(ctx, { live: true });
    const t2 = process.hrtime.bigint();
    await getLeaderboard(ctx);
    if (message !== 'Correct Flag!') throw new Error(`board cost: a correct flag answered ${message}`);
    if (i < WARM_UP) continue;
    flag.push(Number(t1 - t0) / 1e6);
    update.push(Number(t2 - t1) / 1e6);
    answer.push(ms(t2));
  }
  const { board: live } = await getScoreView(ctx, { live: true });
  return {
    solves: snapshot.solves.length,
    competitors: live.ranked.length,
    samples: pairs.length - WARM_UP,
    rebuildMs: median(rebuild),
    buildInMemoryMs: median(inMemory),
    flagMs: median(flag),
    updateMs: median(update),
    answerMs: median(answer),
    applyStaticMs: median(applyStatic),
    applyDynamicMs: median(applyDynamic),
    dynamicSolvers: median(dynamicSolvers),
  };
}
