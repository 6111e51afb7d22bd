import { leaderboardApi, type ScoreboardExportRow, type SolveExportRow } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { CachedJson } from '../../lib/cached-json.js';
import { SYSTEM_ACTOR, recordAudit, type AuditActor } from '../audit/audit.service.js';
import { IncrementalValue } from '../../lib/invalidation.js';
import { currentSolvePosition, readSolvesSince, type SolveFeedPosition } from './solve-feed.js';
import { currentUnlockFeed, readUnlockFeed, type UnlockFeedPosition } from '../hints/hints.service.js';
import {
  currentAwardFeed,
  listAwardsForBoard,
  listAwardsForExport,
  readAwardFeed,
  type AwardFeedPosition,
} from '../awards/awards.service.js';
import { activeFreeze, getFreezeAt, storeFreezeAt } from '../event-state/event-state.service.js';
import { ScoreBoard } from './score-board.js';
import { listSolvesForExport, readBoardSnapshot, readBoardUsers } from './scoreboard.repo.js';
import { releaseHeldFirstBloods } from './first-bloods.repo.js';
import {
  ctftimeFeed,
  graphSeries,
  releasedChallengeNames,
  scoreboardRows,
  solveRows,
} from './scoreboard.views.js';

/**
 * The scoreboard's one scoring function in memory (score-board.ts), kept live, and the public
 * board of a freeze (docs/product.md §15: time is a read-time input). Which one a reader gets is decided
 * from the clock when it asks: before the freeze time the live board, from it the board built
 * from the solves before it. Nothing rewrites rows at the freeze, and lifting it (or moving it)
 * switches every view at the next read.
 */

interface BoardState {
  board: ScoreBoard;
  position: SolveFeedPosition;
  unlocks: UnlockFeedPosition;
  awards: AwardFeedPosition;
  /** Updates of one board run one after another (each reads the feed from where the last stopped). */
  queue: Promise<unknown>;
}

async function buildState(ctx: AppContext, cutoff: string | null): Promise<BoardState> {
  // The position first: a solve landing in between is read again by the next update, which the
  // board ignores (a user counts once per challenge).
  const [position, unlocks, awardPosition] = await Promise.all([
    currentSolvePosition(ctx.database.db, ctx.database.dialect),
    currentUnlockFeed(ctx),
    currentAwardFeed(ctx),
  ]);
  const [snapshot, awards] = await Promise.all([
    readBoardSnapshot(ctx.database.db, cutoff),
    listAwardsForBoard(ctx, cutoff),
  ]);
  const board = new ScoreBoard({ ...snapshot, awards }, cutoff);
  return { board, position, unlocks, awards: awardPosition, queue: Promise.resolve() };
}

/**
 * New solves change their competitors and, through dynamic values, the solvers of the challenges
 * they name: the board applies them in place. A deletion, a late commit or an unknown solver
 * (inconsistent feed) sends it back to a full build.
 */
async function updateState(ctx: AppContext, kept: BoardState): Promise<BoardState> {
  const run = kept.queue.then(async () => {
    const [feed, unlockFeed, awardFeed] = await Promise.all([
      readSolvesSince(ctx.database.db, ctx.database.dialect, kept.position),
      readUnlockFeed(ctx, kept.unlocks),
      readAwardFeed(ctx, kept.awards),
    ]);
    if (!feed.consistent || !unlockFeed.consistent || !awardFeed.consistent) return null;
    // Players who signed up after the board was read (a new player publishes nothing): read and added.
    const unknown = kept.board.unknownUsers([
      ...feed.solves.map((s) => s.user_id),
      ...unlockFeed.unlocks.map((u) => u.user_id),
      ...awardFeed.awards.flatMap((a) => (a.user_id === null ? [] : [a.user_id])),
    ]);
    if (unknown.length > 0 && !kept.board.learnUsers(await readBoardUsers(ctx.database.db, unknown)))
      return null;
    if (!kept.board.apply(feed.solves, unlockFeed.unlocks, awardFeed.awards)) return null;
    kept.position = feed.position;
    kept.unlocks = unlockFeed.position;
    kept.awards = awardFeed.position;
    return kept;
  });
  kept.queue = run.catch(() => {});
  return (await run) ?? buildState(ctx, kept.board.cutoff);
}

// Challenge edits (scoring, names), removals and who is an admin or on which team change rows that
// no solve names: those rebuild. A correct flag is applied.
// A deleted award ('awards') rebuilds too.
const FULL_TOPICS = ['challenges', 'solves', 'teams', 'users', 'awards'] as const;
// A correct flag, a hint unlock or a new award is applied to the kept board.
const DELTA_TOPICS = ['solves-added', 'unlocks-added', 'awards-added'] as const;

const liveBoards = new WeakMap<AppContext, IncrementalValue<BoardState>>();
const frozenBoards = new WeakMap<AppContext, { cutoff: string; value: IncrementalValue<BoardState> }>();

function boardCache(ctx: AppContext, cutoff: string | null): IncrementalValue<BoardState> {
  if (cutoff === null) {
    let live = liveBoards.get(ctx);
    if (!live) {
      live = new IncrementalValue(
        ctx.bus,
        { full: FULL_TOPICS, delta: DELTA_TOPICS },
        () => buildState(ctx, null),
        (kept) => updateState(ctx, kept),
      );
      liveBoards.set(ctx, live);
    }
    return live;
  }
  const frozen = frozenBoards.get(ctx);
  if (frozen && frozen.cutoff === cutoff) return frozen.value;
  frozen?.value.dispose();
  // The frozen board follows the feed too: a solve recorded just before the freeze time may
  // commit after it; later solves are skipped by the board itself.
  const value = new IncrementalValue(
    ctx.bus,
    { full: FULL_TOPICS, delta: DELTA_TOPICS },
    () => buildState(ctx, cutoff),
    (kept) => updateState(ctx, kept),
  );
  frozenBoards.set(ctx, { cutoff, value });
  return value;
}

/**
 * Sets the freeze time (the public board is as of then from then on) or lifts it (null), with
 * its audit row in the same transaction.
 */
export async function setFreezeAt(
  ctx: AppContext,
  at: Date | null,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<string | null> {
  const value = at === null ? null : at.toISOString();
  const before = (await getFreezeAt(ctx))?.toISOString() ?? null;
  const released = await ctx.database.transaction(async (trx) => {
    await storeFreezeAt(trx, value);
    await recordAudit(trx, {
      actor,
      action: 'scoreboard.freeze',
      target: 'scoreboard',
      details: { before: { freeze_at: before }, after: { freeze_at: value } },
      at: ctx.clock.now(),
    });
    // First bloods held during the freeze that the public board now shows are announced, once:
    // their Discord messages go to the outbox with the change that reveals them.
    const bloods = await releaseHeldFirstBloods(trx, value);
    for (const b of bloods) await ctx.domainEvents.emitInTransaction(trx, 'first-blood', b);
    return bloods;
  });
  await ctx.domainEvents.emit('freeze.changed', { freezeAt: value });
  for (const b of released) await ctx.domainEvents.emit('first-blood', b);
  return value;
}

/** A board and whether it is the frozen public view (its freeze time) or live (null). */
export interface ScoreView {
  board: ScoreBoard;
  frozenAt: string | null;
}

/**
 * The board a reader sees: admins (live: true) always the live one; everyone else the live one
 * until the freeze time, then the one built from the solves before it.
 */
export async function getScoreView(ctx: AppContext, options: { live: boolean }): Promise<ScoreView> {
  const frozenAt = options.live ? null : await activeFreeze(ctx);
  const state = await boardCache(ctx, frozenAt).get();
  return { board: state.board, frozenAt };
}

/**
 * The live scoreboard as the admin export shows it (exports are for admins: never frozen); one
 * division's, positions within it, when `divisionId` names one (issue 19).
 */
export async function exportScoreboard(ctx: AppContext, divisionId?: number): Promise<ScoreboardExportRow[]> {
  const { board } = await getScoreView(ctx, { live: true });
  return board.memo(`export-scoreboard:${divisionId ?? ''}`, () => scoreboardRows(board, divisionId));
}

/**
 * Every solve that counts (for one division's competitors), oldest first, with what it scores, and
 * every award that counts, as a row named 'Award: <reason>' (so a competitor's rows add up).
 */
export async function exportSolves(ctx: AppContext, divisionId?: number): Promise<SolveExportRow[]> {
  const [{ board }, solves, awards] = await Promise.all([
    getScoreView(ctx, { live: true }),
    listSolvesForExport(ctx.database.db),
    listAwardsForExport(ctx),
  ]);
  return solveRows(board, solves, divisionId, awards);
}

/** The score graph of the top competitors, as the caller's board has it. */
export async function getScoreGraph(
  ctx: AppContext,
  live: boolean,
  top: number,
  divisionId?: number,
): Promise<CachedJson> {
  const { board, frozenAt } = await getScoreView(ctx, { live });
  const key = divisionId === undefined ? `graph:${top}` : `graph:${top}:d${divisionId}`;
  return board.memo(key, () =>
    CachedJson.of(leaderboardApi.scoreGraph.response, {
      series: graphSeries(board, top, divisionId),
      frozen_at: frozenAt,
    }),
  );
}

/** The CTFtime feed: the public board (as of the freeze during one), or one division's standings. */
export async function getCtftimeFeed(ctx: AppContext, divisionId?: number): Promise<CachedJson> {
  const { board } = await getScoreView(ctx, { live: false });
  // Release times are read-time inputs: the memo's key changes when another challenge is out.
  const tasks = releasedChallengeNames(board, ctx.clock.now().toISOString());
  const key = divisionId === undefined ? `ctftime:${tasks.length}` : `ctftime:${tasks.length}:d${divisionId}`;
  return board.memo(key, () =>
    CachedJson.of(leaderboardApi.ctftime.response, ctftimeFeed(board, tasks, divisionId)),
  );
}
