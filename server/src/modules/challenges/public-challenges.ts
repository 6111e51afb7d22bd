import { MESSAGES, type ChallengeDetail, type PublicChallenge } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { Executor, UserRow } from '../../db/schema.js';
import { DomainError, forbidden, notFound } from '../../lib/errors.js';
import { CachedValue, IncrementalValue } from '../../lib/invalidation.js';
import { currentSolvePosition, readSolvesSince, type SolveFeedPosition } from '../submissions/solve-feed.js';
import { CachedJson } from '../../lib/cached-json.js';
import { isSiteActive } from '../site/site.service.js';
import type { ScoreBoard } from '../scoreboard/score-board.js';
import { getScoreView } from '../scoreboard/scoreboard.service.js';
import { hintsForCompetitor } from '../hints/hints.service.js';
import { presentChallengeDetail, presentPublicChallenge } from './challenges.presenter.js';
import {
  attemptsUsed,
  countSolvesOf,
  listAttachedFileNames,
  listChallengeFlags,
  listChallengeSummaries,
  listChallengesForPlay,
} from './challenges.repo.js';
import { challengeMatcher, type FlagMatcher, type StoredFlag } from './flags.js';

/** The public list, serialised once per change: every caller gets the same bytes and ETag. */
export interface PublicChallengeList {
  answer: CachedJson;
  /** In list order, and the solves it was read after: the base of the next update. */
  list: PublicChallenge[];
  position: SolveFeedPosition;
  byId: ReadonlyMap<string, PublicChallenge>;
}

/** Challenge names in list order: case-insensitive, the same on SQLite and PostgreSQL. */
const byName = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Orders challenges by points, then name, then id (for names that compare equal). */
export function compareChallenges(
  a: { points: number; name: string; id: number },
  b: { points: number; name: string; id: number },
): number {
  return a.points - b.points || byName.compare(a.name, b.name) || a.id - b.id;
}

/** Every challenge as participants see it (no flag), ordered by points then name. */
export async function buildPublicChallenges(db: Executor): Promise<PublicChallenge[]> {
  const [rows, files] = await Promise.all([listChallengeSummaries(db), listAttachedFileNames(db)]);
  return rows.sort(compareChallenges).map((row) => presentPublicChallenge(row, files.get(row.id) ?? []));
}

function listAnswer(list: PublicChallenge[], position: SolveFeedPosition): PublicChallengeList {
  return {
    answer: new CachedJson(JSON.stringify(list)),
    list,
    position,
    byId: new Map(list.map((c) => [c._id, c])),
  };
}

/** The whole list; the solve feed position is read first, never after. */
async function buildListAnswer(ctx: AppContext): Promise<PublicChallengeList> {
  const position = await currentSolvePosition(ctx.database.db, ctx.database.dialect);
  return listAnswer(await buildPublicChallenges(ctx.database.db), position);
}

/** New solves change only the solve counts of the challenges they name; the order stays. */
async function updateListAnswer(ctx: AppContext, kept: PublicChallengeList): Promise<PublicChallengeList> {
  const feed = await readSolvesSince(ctx.database.db, ctx.database.dialect, kept.position);
  if (!feed.consistent) return buildListAnswer(ctx);
  if (feed.solves.length === 0) return { ...kept, position: feed.position };
  const counts = await countSolvesOf(ctx.database.db, [...new Set(feed.solves.map((s) => s.challenge_id))]);
  const list = kept.list.map((c) => {
    const count = counts.get(Number(c._id));
    return count === undefined ? c : { ...c, user_completions: count };
  });
  return listAnswer(list, feed.position);
}

const caches = new WeakMap<AppContext, IncrementalValue<PublicChallengeList>>();

function listCache(ctx: AppContext): IncrementalValue<PublicChallengeList> {
  let cache = caches.get(ctx);
  if (!cache) {
    // Names, flags' absence, solve counts, ratings, attached files and who counts as an admin all
    // show in the list, so any of those writes drops it; a correct flag only moves solve counts.
    cache = new IncrementalValue(
      ctx.bus,
      { full: ['challenges', 'solves', 'ratings', 'files', 'users'], delta: ['solves-added'] },
      () => buildListAnswer(ctx),
      (kept) => updateListAnswer(ctx, kept),
    );
    caches.set(ctx, cache);
  }
  return cache;
}

function siteInactive(): DomainError {
  return new DomainError('site_inactive', MESSAGES.siteInactive);
}

/** While the site switch is off, participants may not play; admins work through their own calls. */
async function assertSiteOpenFor(ctx: AppContext, user: UserRow): Promise<void> {
  if (user.is_admin === 1) return;
  if (!(await isSiteActive(ctx))) throw siteInactive();
}

/** Whether this user may open a challenge in this state (participants only active ones). */
function assertChallengeOpenFor(user: UserRow, isActive: boolean): void {
  if (!isActive && user.is_admin !== 1) throw forbidden(MESSAGES.challengeInactive);
}

/**
 * The list with each challenge's current value and solve count as a board has them (the score
 * board counts solves the same way: users who count), ordered by those values.
 */
export function withCurrentValues(list: readonly PublicChallenge[], board: ScoreBoard): PublicChallenge[] {
  return list
    .map((c) => {
      const id = Number(c._id);
      const points = board.values.get(id);
      return points === undefined ? c : { ...c, points, user_completions: board.counts.get(id) ?? 0 };
    })
    .sort((a, b) =>
      compareChallenges(
        { points: a.points, name: a.name, id: Number(a._id) },
        { points: b.points, name: b.name, id: Number(b._id) },
      ),
    );
}

const valuedLists = new WeakMap<
  PublicChallengeList,
  { board: ScoreBoard; version: number; list: PublicChallengeList }
>();

/**
 * The kept list with a board's values: rebuilt when either moved (a correct flag moves both), so
 * the public view of a freeze shows the counts and values as of the freeze.
 */
function valuedList(base: PublicChallengeList, board: ScoreBoard): PublicChallengeList {
  const kept = valuedLists.get(base);
  if (kept && kept.board === board && kept.version === board.version) return kept.list;
  const list = listAnswer(withCurrentValues(base.list, board), base.position);
  valuedLists.set(base, { board, version: board.version, list });
  return list;
}

/** The list as a reader sees it: admins live, everyone else as of the freeze during one. */
async function listFor(ctx: AppContext, live: boolean): Promise<PublicChallengeList> {
  const [base, view] = await Promise.all([listCache(ctx).get(), getScoreView(ctx, { live })]);
  return valuedList(base, view.board);
}

/**
 * The public challenge list, the same for every caller (GET /api/ctf/challenges). While the site
 * is inactive it is refused to everyone, admins included: they have their own list.
 */
export async function getPublicChallengeList(ctx: AppContext): Promise<PublicChallengeList> {
  if (!(await isSiteActive(ctx))) throw siteInactive();
  return listFor(ctx, false);
}

/** One challenge's page for a logged-in user: site open (or admin), known, active (or admin). */
export async function getChallengeDetail(
  ctx: AppContext,
  user: UserRow,
  id: number,
): Promise<ChallengeDetail> {
  await assertSiteOpenFor(ctx, user);
  const challenge = (await listFor(ctx, user.is_admin === 1)).byId.get(String(id));
  if (!challenge) throw notFound('Challenge not found');
  assertChallengeOpenFor(user, challenge.is_active);
  const play = (await challengesForPlay(ctx)).get(id);
  const [hints, attemptsLeft] = await Promise.all([
    hintsForCompetitor(ctx, user, id),
    play?.maxAttempts == null
      ? Promise.resolve(null)
      : attemptsUsed(ctx.database.db, user.id, id).then((used) => Math.max(0, play.maxAttempts! - used)),
  ]);
  return presentChallengeDetail(challenge, { hints, attemptsLeft });
}

/** What the flag gate knows about a challenge: compiled flags, state and attempt limit. */
export interface ChallengeForPlay {
  id: number;
  matches: FlagMatcher;
  isActive: boolean;
  maxAttempts: number | null;
}

const playCaches = new WeakMap<AppContext, CachedValue<ReadonlyMap<number, ChallengeForPlay>>>();

/**
 * Every challenge's flag and state, kept in memory for the flag gate: a burst of submissions
 * reads no challenge row. Any challenge write ('challenges': edit, toggle, delete, create) drops
 * it, in this process at once and in the others before their next request.
 */
function challengesForPlay(ctx: AppContext): Promise<ReadonlyMap<number, ChallengeForPlay>> {
  let cache = playCaches.get(ctx);
  if (!cache) {
    // NOTE: regexes are compiled here, once per fill, never per submission.
    cache = new CachedValue<ReadonlyMap<number, ChallengeForPlay>>(ctx.bus, ['challenges'], async () => {
      const [rows, flags] = await Promise.all([
        listChallengesForPlay(ctx.database.db),
        listChallengeFlags(ctx.database.db),
      ]);
      return new Map(
        rows.map((r) => [
          r.id,
          {
            id: r.id,
            matches: challengeMatcher((flags.get(r.id) ?? []) as StoredFlag[]),
            isActive: r.is_active === 1,
            maxAttempts: r.max_attempts,
          },
        ]),
      );
    });
    playCaches.set(ctx, cache);
  }
  return cache.get();
}

/**
 * The gate before a flag is compared or a hint unlocked: site open (or admin), challenge known
 * (404), active (or admin). Answers the compiled flags, current as of the last challenge write.
 */
export async function openChallengeForSubmission(
  ctx: AppContext,
  user: UserRow,
  id: number,
): Promise<ChallengeForPlay> {
  await assertSiteOpenFor(ctx, user);
  const challenge = (await challengesForPlay(ctx)).get(id);
  if (!challenge) throw notFound('Challenge not found');
  assertChallengeOpenFor(user, challenge.isActive);
  return challenge;
}
