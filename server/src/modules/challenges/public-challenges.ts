import { MESSAGES, type ChallengeDetail, type PublicChallenge } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { Executor, UserRow } from '../../db/schema.js';
import { DomainError, forbidden, notFound } from '../../lib/errors.js';
import { CachedValue, IncrementalValue } from '../../lib/invalidation.js';
import { currentSolvePosition, readSolvesSince, type SolveFeedPosition } from '../scoreboard/solve-feed.js';
import { CachedJson } from '../../lib/cached-json.js';
import { isSiteActive } from '../event-state/event-state.service.js';
import type { ScoreBoard } from '../scoreboard/score-board.js';
import { getScoreView } from '../scoreboard/scoreboard.service.js';
import { hintsForCompetitor } from '../hints/hints.service.js';
import { presentChallengeDetail, presentPublicChallenge } from './challenges.presenter.js';
import { toApiId } from '../../lib/ids.js';
import { listChallengesForPlay, listReleaseTimes } from './challenges.repo.js';
import {
  listAttachedFileNames,
  listChallengeFlags,
  listPrerequisites,
  unmetPrerequisites,
} from './challenge-parts.repo.js';
import {
  attemptsUsed,
  countSolvesOf,
  listChallengeSummaries,
  listFirstBloods,
} from './challenge-solves.repo.js';
import { challengeMatcher, type StoredFlag } from './flags.js';
import { competitorOfUser, teamFlag, teamFlagKey, teamFlagMatcher } from './team-flags.js';

/**
 * The public list, serialised once per change: every caller gets the same bytes and ETag. It
 * holds every challenge (the detail reads from it) and answers only the released ones.
 */
export interface PublicChallengeList {
  /** Serialised on first demand: the kept base list is only ever read through its valued form. */
  readonly answer: CachedJson;
  /** What the answer lists: released challenges in list order (locked ones without content). */
  list: PublicChallenge[];
  /** Every challenge in list order, full: the base of the next update. */
  all: PublicChallenge[];
  /** The solves it was read after. */
  position: SolveFeedPosition;
  /** Every challenge by `_id`, released or not, with its content (for the detail). */
  byId: ReadonlyMap<string, PublicChallenge>;
  /** Each challenge's first blood solve id (challenges with one): a new solve below it replaces it. */
  firstBloodIds: ReadonlyMap<number, number>;
  /** Release time (ms) and prerequisite ids by challenge id. */
  schedule: ReadonlyMap<number, { releaseAt: number | null; prerequisites: number[] }>;
  /** The next release time after this answer was built: the answer expires then. */
  nextRelease: number | null;
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
  return (await buildPublicChallengesWithFirstBloods(db)).all;
}

async function buildPublicChallengesWithFirstBloods(
  db: Executor,
): Promise<{ all: PublicChallenge[]; firstBloodIds: Map<number, number> }> {
  const [rows, files, bloods] = await Promise.all([
    listChallengeSummaries(db),
    listAttachedFileNames(db),
    listFirstBloods(db),
  ]);
  const byChallenge = new Map(bloods.map((b) => [b.challenge_id, b]));
  const all = rows
    .sort(compareChallenges)
    .map((row) =>
      presentPublicChallenge(row, files.get(row.id) ?? [], byChallenge.get(row.id)?.competitor ?? null),
    );
  return { all, firstBloodIds: new Map(bloods.map((b) => [b.challenge_id, b.solve_id])) };
}

type Schedule = PublicChallengeList['schedule'];

async function readSchedule(db: Executor): Promise<Schedule> {
  const [times, prerequisites] = await Promise.all([listReleaseTimes(db), listPrerequisites(db)]);
  const schedule = new Map<number, { releaseAt: number | null; prerequisites: number[] }>();
  for (const [id, at] of times) {
    schedule.set(id, {
      releaseAt: at === null ? null : Date.parse(at),
      prerequisites: prerequisites.get(id) ?? [],
    });
  }
  return schedule;
}

/**
 * The answer as of `now`: challenges released by then, a challenge with prerequisites without
 * its description and files (the same for every caller; the detail opens it for those who
 * solved them), and the next release time, when this answer turns over by itself.
 */
function listAnswer(
  all: PublicChallenge[],
  position: SolveFeedPosition,
  schedule: Schedule,
  now: number,
  firstBloodIds: ReadonlyMap<number, number>,
): PublicChallengeList {
  const list: PublicChallenge[] = [];
  let nextRelease: number | null = null;
  for (const c of all) {
    const s = schedule.get(Number(c._id));
    if (s?.releaseAt != null && s.releaseAt > now) {
      if (nextRelease === null || s.releaseAt < nextRelease) nextRelease = s.releaseAt;
      continue;
    }
    if (s && s.prerequisites.length > 0) {
      list.push({ ...c, description: '', hlinks: [], prerequisites: s.prerequisites.map(toApiId) });
    } else list.push(c);
  }
  let answer: CachedJson | undefined;
  return {
    get answer() {
      return (answer ??= new CachedJson(JSON.stringify(list)));
    },
    list,
    all,
    position,
    byId: new Map(all.map((c) => [c._id, c])),
    firstBloodIds,
    schedule,
    nextRelease,
  };
}

/** The whole list; the solve feed position is read first, never after. */
async function buildListAnswer(ctx: AppContext): Promise<PublicChallengeList> {
  const position = await currentSolvePosition(ctx.database.db, ctx.database.dialect);
  const [{ all, firstBloodIds }, schedule] = await Promise.all([
    buildPublicChallengesWithFirstBloods(ctx.database.db),
    readSchedule(ctx.database.db),
  ]);
  const answer = listAnswer(all, position, schedule, ctx.clock.now().getTime(), firstBloodIds);
  announceReleaseAt(ctx, answer.nextRelease);
  return answer;
}

/**
 * New solves change only the solve counts of the challenges they name, and the first blood of a
 * challenge that had none (or whose first blood a late-committed solve precedes); the order stays.
 * Both reads name only the new solves' challenges and ids: O(changes).
 */
async function updateListAnswer(ctx: AppContext, kept: PublicChallengeList): Promise<PublicChallengeList> {
  const feed = await readSolvesSince(ctx.database.db, ctx.database.dialect, kept.position);
  if (!feed.consistent) return buildListAnswer(ctx);
  if (feed.solves.length === 0) {
    // Not a spread: it would serialise the kept answer (a getter) to copy it.
    return listAnswer(kept.all, feed.position, kept.schedule, ctx.clock.now().getTime(), kept.firstBloodIds);
  }
  const db = ctx.database.db;
  const maybeFirst = feed.solves.filter((s) => (kept.firstBloodIds.get(s.challenge_id) ?? Infinity) > s.id);
  const [counts, bloods] = await Promise.all([
    countSolvesOf(db, [...new Set(feed.solves.map((s) => s.challenge_id))]),
    listFirstBloods(
      db,
      maybeFirst.map((s) => s.id),
    ),
  ]);
  const firstBloodIds = new Map(kept.firstBloodIds);
  const firstBloods = new Map<number, string>();
  for (const b of bloods) {
    if ((firstBloodIds.get(b.challenge_id) ?? Infinity) < b.solve_id) continue;
    firstBloodIds.set(b.challenge_id, b.solve_id);
    firstBloods.set(b.challenge_id, b.competitor);
  }
  const all = kept.all.map((c) => {
    const id = Number(c._id);
    const count = counts.get(id);
    const blood = firstBloods.get(id);
    if (count === undefined && blood === undefined) return c;
    return {
      ...c,
      ...(count === undefined ? {} : { user_completions: count }),
      ...(blood === undefined ? {} : { first_blood: blood }),
    };
  });
  return listAnswer(all, feed.position, kept.schedule, ctx.clock.now().getTime(), firstBloodIds);
}

const caches = new WeakMap<AppContext, IncrementalValue<PublicChallengeList>>();

/**
 * Whether this process already knows the challenge has a first blood (from the list as kept,
 * without waiting for a rebuild). False may be stale: the database then settles it.
 */
export async function knownFirstBlood(ctx: AppContext, challengeId: number): Promise<boolean> {
  // NOTE: the kept list as it is, with no update started: asking this at every correct flag must
  // not re-serialise the whole list each time (its readers bring it up to date when they read).
  const cache = listCache(ctx);
  return (cache.current ?? (await cache.getKept())).firstBloodIds.has(challengeId);
}

function listCache(ctx: AppContext): IncrementalValue<PublicChallengeList> {
  let cache = caches.get(ctx);
  if (!cache) {
    // Names, flags' absence, solve counts, ratings, attached files and who counts as an admin all
    // show in the list, so any of those writes drops it; a correct flag only moves solve counts.
    // A scheduled release turns it over at that time, with no write (DESIGN.md §8).
    cache = new IncrementalValue(
      ctx.bus,
      // 'teams': a first blood names the team (a rename, a hidden team).
      { full: ['challenges', 'solves', 'ratings', 'files', 'users', 'teams'], delta: ['solves-added'] },
      () => buildListAnswer(ctx),
      (kept) => updateListAnswer(ctx, kept),
      { now: () => ctx.clock.now().getTime(), at: (v) => v.nextRelease },
    );
    caches.set(ctx, cache);
  }
  return cache;
}

/** setTimeout's longest delay; a later release is waited for in steps. */
const MAX_TIMER_MS = 2_147_483_647;
const releaseTimers = new WeakMap<AppContext, { at: number; timer: NodeJS.Timeout }>();

/**
 * Tells open pages (the live stream's 'challenges' event) when the next release happens, so
 * they fetch the list that has just turned over. Nothing is written: the list expires by itself.
 */
function announceReleaseAt(ctx: AppContext, at: number | null): void {
  const current = releaseTimers.get(ctx);
  if (current && current.at === at) return;
  if (current) clearTimeout(current.timer);
  releaseTimers.delete(ctx);
  if (at === null) return;
  const wait = at - ctx.clock.now().getTime();
  const timer = setTimeout(
    () => {
      releaseTimers.delete(ctx);
      if (ctx.clock.now().getTime() < at) announceReleaseAt(ctx, at);
      else void ctx.domainEvents.emit('challenges.released', { at });
    },
    Math.min(Math.max(wait, 0), MAX_TIMER_MS),
  );
  timer.unref();
  releaseTimers.set(ctx, { at, timer });
}

/** Stops the release announcement of an app that closes. */
export function stopReleaseAnnouncements(ctx: AppContext): void {
  const current = releaseTimers.get(ctx);
  if (current) clearTimeout(current.timer);
  releaseTimers.delete(ctx);
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
export function withCurrentValues(
  list: readonly PublicChallenge[],
  board: ScoreBoard,
  firstBloodIds?: ReadonlyMap<number, number>,
): PublicChallenge[] {
  return list
    .map((c) => {
      const id = Number(c._id);
      const points = board.values.get(id);
      if (points === undefined) return c;
      const valued = { ...c, points, user_completions: board.counts.get(id) ?? 0 };
      // A frozen board names a first blood only when its solve is on it (before the freeze).
      if (board.cutoff !== null && firstBloodIds && c.first_blood !== null) {
        const blood = firstBloodIds.get(id);
        if (blood === undefined || board.firstSolves.get(id) !== blood) valued.first_blood = null;
      }
      return valued;
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
function valuedList(ctx: AppContext, base: PublicChallengeList, board: ScoreBoard): PublicChallengeList {
  const kept = valuedLists.get(base);
  if (kept && kept.board === board && kept.version === board.version) return kept.list;
  // The base list turns over at each release time, so its schedule is read as of now.
  const list = listAnswer(
    withCurrentValues(base.all, board, base.firstBloodIds),
    base.position,
    base.schedule,
    ctx.clock.now().getTime(),
    base.firstBloodIds,
  );
  valuedLists.set(base, { board, version: board.version, list });
  return list;
}

/** The list as a reader sees it: admins live, everyone else as of the freeze during one. */
async function listFor(ctx: AppContext, live: boolean): Promise<PublicChallengeList> {
  const [base, view] = await Promise.all([listCache(ctx).get(), getScoreView(ctx, { live })]);
  return valuedList(ctx, base, view.board);
}

/**
 * The public challenge list, the same for every caller (GET /api/ctf/challenges). While the site
 * is inactive it is refused to everyone, admins included: they have their own list.
 */
export async function getPublicChallengeList(ctx: AppContext): Promise<PublicChallengeList> {
  if (!(await isSiteActive(ctx))) throw siteInactive();
  return listFor(ctx, false);
}

/**
 * One challenge's page for a logged-in user: site open (or admin), known and released (404 before
 * its release: it does not exist yet), active (or admin). Until the caller's competitor solved its
 * prerequisites it answers the locked view: no description, files or hints, `locked: true`.
 */
export async function getChallengeDetail(
  ctx: AppContext,
  user: UserRow,
  id: number,
): Promise<ChallengeDetail> {
  await assertSiteOpenFor(ctx, user);
  const challenge = (await listFor(ctx, user.is_admin === 1)).byId.get(String(id));
  const play = (await challengesForPlay(ctx)).get(id);
  if (!challenge || !play || !isReleasedFor(ctx, user, play)) throw notFound('Challenge not found');
  assertChallengeOpenFor(user, challenge.is_active);
  if ((await unmetFor(ctx, user, play)).length > 0) {
    return {
      ...presentChallengeDetail(challenge, { hints: [], attemptsLeft: null }),
      description: '',
      hlinks: [],
      locked: true,
    };
  }
  const [hints, attemptsLeft] = await Promise.all([
    hintsForCompetitor(ctx, user, id),
    play.maxAttempts === null
      ? Promise.resolve(null)
      : attemptsUsed(ctx.database.db, user.id, id).then((used) => Math.max(0, play.maxAttempts! - used)),
  ]);
  // A challenge built to read it offers a competitor its own per-team flag (admins are no competitor).
  const teamFlagText =
    play.perTeam?.onPage && user.is_admin !== 1
      ? teamFlag(teamFlagKey(ctx.config.sessionSecret), id, play.perTeam.base, competitorOfUser(user))
      : undefined;
  return presentChallengeDetail(challenge, {
    hints,
    attemptsLeft,
    teamFlag: teamFlagText,
    instance: play.hasInstance,
  });
}

/** Before its release time a challenge exists for admins only. */
function isReleasedFor(ctx: AppContext, user: UserRow, play: ChallengeForPlay): boolean {
  return user.is_admin === 1 || play.releaseAt === null || play.releaseAt <= ctx.clock.now().getTime();
}

/** The prerequisites the caller's competitor has not solved (none for admins; no read without any). */
async function unmetFor(ctx: AppContext, user: UserRow, play: ChallengeForPlay): Promise<number[]> {
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
function challengesForPlay(ctx: AppContext): Promise<ReadonlyMap<number, ChallengeForPlay>> {
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
