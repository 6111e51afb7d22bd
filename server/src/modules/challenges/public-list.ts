import type { PublicChallenge } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/schema.js';
import { CachedJson } from '../../lib/cached-json.js';
import { toApiId } from '../../lib/ids.js';
import { IncrementalValue } from '../../lib/invalidation.js';
import { currentSolvePosition, readSolvesSince, type SolveFeedPosition } from '../scoreboard/solve-feed.js';
import { presentPublicChallenge } from './challenges.presenter.js';
import { listReleaseTimes } from './challenges.repo.js';
import { listAttachedFileNames, listPrerequisites } from './challenge-parts.repo.js';
import { listChallengeSummaries, listFirstBloods } from './challenge-solves.repo.js';
import { announceReleaseAt } from './release-announcements.js';

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
export function listAnswer(
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
      return (answer ??= new CachedJson(serialiseList(list)));
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

/** Each challenge's JSON text, kept with the (never mutated) object it was made from. */
const challengeJson = new WeakMap<PublicChallenge, string>();

/**
 * JSON.stringify(list), the same text, from each challenge's kept text: a new version of the list
 * (every correct flag, while an event starts) serialises only the challenges that changed.
 */
export function serialiseList(list: readonly PublicChallenge[]): string {
  let out = '[';
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    let json = challengeJson.get(c);
    if (json === undefined) {
      json = JSON.stringify(c);
      challengeJson.set(c, json);
    }
    out += i === 0 ? json : `,${json}`;
  }
  return `${out}]`;
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
 * The counts every reader sees are the score board's (challenge-views.ts, withCurrentValues, over
 * every challenge), so they are not counted again here: the kept list's own counts stay those of
 * its last full build. The first bloods are read for the new solves' ids only: O(changes).
 */
async function updateListAnswer(ctx: AppContext, kept: PublicChallengeList): Promise<PublicChallengeList> {
  const feed = await readSolvesSince(ctx.database.db, ctx.database.dialect, kept.position);
  if (!feed.consistent) return buildListAnswer(ctx);
  if (feed.solves.length === 0) {
    // Not a spread: it would serialise the kept answer (a getter) to copy it.
    return listAnswer(kept.all, feed.position, kept.schedule, ctx.clock.now().getTime(), kept.firstBloodIds);
  }
  const maybeFirst = feed.solves.filter((s) => (kept.firstBloodIds.get(s.challenge_id) ?? Infinity) > s.id);
  if (maybeFirst.length === 0)
    return listAnswer(kept.all, feed.position, kept.schedule, ctx.clock.now().getTime(), kept.firstBloodIds);
  const bloods = await listFirstBloods(
    ctx.database.db,
    maybeFirst.map((s) => s.id),
  );
  const firstBloodIds = new Map(kept.firstBloodIds);
  const firstBloods = new Map<number, string>();
  for (const b of bloods) {
    if ((firstBloodIds.get(b.challenge_id) ?? Infinity) < b.solve_id) continue;
    firstBloodIds.set(b.challenge_id, b.solve_id);
    firstBloods.set(b.challenge_id, b.competitor);
  }
  const all = kept.all.map((c) => {
    const blood = firstBloods.get(Number(c._id));
    return blood === undefined ? c : { ...c, first_blood: blood };
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

export function listCache(ctx: AppContext): IncrementalValue<PublicChallengeList> {
  let cache = caches.get(ctx);
  if (!cache) {
    // Names, flags' absence, solve counts, ratings, attached files and who counts as an admin all
    // show in the list, so any of those writes drops it; a correct flag only moves solve counts.
    // A scheduled release turns it over at that time, with no write (docs/product.md §15).
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
