import type { ChallengeDetail, PublicChallenge } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { notFound } from '../../lib/errors.js';
import { isSiteActive } from '../event-state/event-state.service.js';
import { hintsForCompetitor } from '../hints/hints.service.js';
import type { ScoreBoard } from '../scoreboard/score-board.js';
import { getScoreView } from '../scoreboard/scoreboard.service.js';
import { presentChallengeDetail } from './challenges.presenter.js';
import { attemptsUsed } from './challenge-solves.repo.js';
import {
  assertChallengeOpenFor,
  assertSiteOpenFor,
  challengesForPlay,
  isReleasedFor,
  siteInactive,
  unmetFor,
} from './challenge-gate.js';
import { compareChallenges, listAnswer, listCache, type PublicChallengeList } from './public-list.js';
import { teamFlag, teamFlagKey, competitorOfUser } from './team-flags.js';
import { solutionFor } from './solutions.js';

/**
 * What a reader sees: the kept list with a board's values (live for admins, as of the freeze for
 * everyone else during one), and one challenge's page behind the gate.
 */

/** Each challenge as last valued, kept with its base object: reused while its value holds. */
const lastValued = new WeakMap<PublicChallenge, PublicChallenge>();

/**
 * The list with each challenge's current value and solve count as a board has them (the score
 * board counts solves the same way: users who count), ordered by those values. A challenge whose
 * value, count and first blood did not move is the same object as in the last valuing, so the
 * list's serialisation (public-list.ts) reuses its text: a correct flag re-serialises one.
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
      const count = board.counts.get(id) ?? 0;
      let firstBlood = c.first_blood;
      // A frozen board names a first blood only when its solve is on it (before the freeze).
      if (board.cutoff !== null && firstBloodIds && firstBlood !== null) {
        const blood = firstBloodIds.get(id);
        if (blood === undefined || board.firstSolves.get(id) !== blood) firstBlood = null;
      }
      const kept = lastValued.get(c);
      if (
        kept &&
        kept.points === points &&
        kept.user_completions === count &&
        kept.first_blood === firstBlood
      )
        return kept;
      const valued = { ...c, points, user_completions: count, first_blood: firstBlood };
      lastValued.set(c, valued);
      return valued;
    })
    .sort(byValueThenName(list));
}

/** Each list's challenges ranked by name, then id: compareChallenges after the points, made once per list. */
const nameRanks = new WeakMap<readonly PublicChallenge[], ReadonlyMap<string, number>>();

/**
 * compareChallenges over valued challenges of `list`, with their names compared once for the list
 * (the kept list is valued again at every correct flag; its names do not change, and the
 * collator's comparisons were most of a sort).
 */
function byValueThenName(
  list: readonly PublicChallenge[],
): (a: PublicChallenge, b: PublicChallenge) => number {
  let ranks = nameRanks.get(list);
  if (!ranks) {
    const named = list.map((c) => ({ points: 0, name: c.name, id: Number(c._id) })).sort(compareChallenges);
    ranks = new Map(named.map((c, i) => [String(c.id), i]));
    nameRanks.set(list, ranks);
  }
  const rank = ranks;
  return (a, b) => a.points - b.points || rank.get(a._id)! - rank.get(b._id)!;
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
  const [hints, attemptsLeft, solution] = await Promise.all([
    hintsForCompetitor(ctx, user, id),
    play.maxAttempts === null
      ? Promise.resolve(null)
      : attemptsUsed(ctx.database.db, user.id, id).then((used) => Math.max(0, play.maxAttempts! - used)),
    solutionFor(ctx, user, id),
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
    solution,
  });
}
