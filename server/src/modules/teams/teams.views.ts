import { MAX_TEAM_SIZE, teamsApi, type Team, type TeamCompletion, type TeamListEntry } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { TeamRow, UserRow } from '../../db/schema.js';
import { CachedJson } from '../../lib/cached-json.js';
import { KeyedCache } from '../../lib/invalidation.js';
import { listAwardsOfTeams } from '../awards/awards.service.js';
import { getScoreView } from '../scoreboard/scoreboard.service.js';
import {
  answerAtBoardValues,
  withBoardPoints,
  type BoardValuedAnswer,
} from '../scoreboard/scoreboard.views.js';
import { dropTouchedBySolves, type SolveTouch } from '../scoreboard/solve-feed.js';
import { USER_ANSWER_CACHE_SIZE } from '../users/users.service.js';
import { presentCompletions, presentJoinRequest, presentListEntry, presentTeam } from './teams.presenter.js';
import {
  findTeamById,
  findUserTeamId,
  findUsernameById,
  listAllTeams,
  listJoinRequests,
  listMembers,
  listTeamSolves,
  listTeamsWithRoom,
} from './teams.repo.js';
import { joinRequestChecksum } from './teams.service.js';

// What the team calls answer (the caller's team, kept per user; the joinable list; the admin
// list) and a team's completions. The writes that change them: teams.service.ts.

/**
 * Teams in docs/product.md's shape; checksums of join requests only when `checksums` says so. A
 * caller's own team (`kept`) takes its completions from the kept ones its members share; the
 * admin list reads every team's at once.
 */
async function buildTeams(
  ctx: AppContext,
  teams: readonly TeamRow[],
  options: { checksums: boolean; kept: boolean },
): Promise<Team[]> {
  const db = ctx.database.db;
  const ids = teams.map((t) => t.id);
  const [members, requests, solves, awards] = await Promise.all([
    listMembers(db, ids),
    listJoinRequests(db, ids),
    options.kept ? null : listTeamSolves(db, ids),
    listAwardsOfTeams(ctx, ids),
  ]);
  const checksums = options.checksums;
  const result: Team[] = [];
  for (const team of teams) {
    const own = members.filter((m) => m.team_id === team.id);
    const leaderName =
      own.find((m) => m.id === team.leader_id)?.username ?? (await findUsernameById(db, team.leader_id));
    const joinRequests = requests
      .filter((r) => r.team_id === team.id)
      .map((r) =>
        presentJoinRequest(r, checksums ? joinRequestChecksum(ctx, r.id, r.team_id, r.user_id) : ''),
      );
    const completions = solves
      ? presentCompletions(solves.filter((s) => s.team_id === team.id))
      : await listTeamCompletions(ctx, team.id);
    result.push(
      presentTeam(team, own, leaderName ?? '', joinRequests, completions, awards.get(team.id) ?? []),
    );
  }
  return result;
}

const teamCompletionCaches = new WeakMap<AppContext, KeyedCache<number, readonly TeamCompletion[]>>();

/**
 * A team's completions as the scoring counts them (docs/product.md §12): each challenge once, credited
 * to the member whose solve recorded with the team came first. Empty for a vanished team. Read
 * once per change and kept per team: every member's kept answers (the team answer, the caller's
 * completions) hold this one list, not a copy each. Never changed in place.
 */
export async function listTeamCompletions(
  ctx: AppContext,
  teamId: number,
): Promise<readonly TeamCompletion[]> {
  let cache = teamCompletionCaches.get(ctx);
  if (!cache) {
    cache = new KeyedCache<number, readonly TeamCompletion[]>(
      ctx.bus,
      // Memberships and names (a member's name shows), any solve deleted, a challenge changed.
      ['teams', 'users', 'solves', 'challenges'],
      USER_ANSWER_CACHE_SIZE,
      // A correct flag changes its solver's team's completions only.
      dropTouchedBySolves(ctx.database, (id, _completions, by) => by.teams.has(id)),
    );
    teamCompletionCaches.set(ctx, cache);
  }
  return cache.get(teamId, async () =>
    Object.freeze(presentCompletions(await listTeamSolves(ctx.database.db, [teamId]))),
  );
}

/**
 * A kept team answer, with the team it shows (null: the caller has none). The team is kept with
 * its completions' stored points; the answer is serialised with the points of the board the
 * caller sees (a dynamic value moves with other competitors' solves, and the freeze starts by the
 * clock), and again only when one of those values moved.
 */
interface TeamInfoEntry {
  team: Team | null;
  teamId: number | null;
  valued: BoardValuedAnswer | null;
}

/**
 * Whether new solves change an answer kept for a user that shows their team's completions: a
 * solve of theirs (it may have moved them between teams) or of their team's.
 */
export function touchesMemberOrTeam(
  userId: number,
  entry: { teamId: number | null },
  by: SolveTouch,
): boolean {
  return by.users.has(userId) || (entry.teamId !== null && by.teams.has(entry.teamId));
}

const teamInfoCaches = new WeakMap<AppContext, KeyedCache<number, TeamInfoEntry>>();

/**
 * GET /api/team/info for the caller, serialised once per change and kept per user (the leader's
 * answer differs from a member's). It shows the team, its members and requests, and its solves.
 */
export async function getTeamInfoAnswer(ctx: AppContext, user: UserRow): Promise<CachedJson> {
  let cache = teamInfoCaches.get(ctx);
  if (!cache) {
    cache = new KeyedCache<number, TeamInfoEntry>(
      ctx.bus,
      // Awards are an admin's rare act: any of them drops every kept answer.
      ['teams', 'users', 'solves', 'challenges', 'awards', 'awards-added'],
      USER_ANSWER_CACHE_SIZE,
      // A correct flag changes the answers of its solver and its solver's team only.
      dropTouchedBySolves(ctx.database, touchesMemberOrTeam),
    );
    teamInfoCaches.set(ctx, cache);
  }
  const entry = await cache.get(user.id, async () => {
    const team = await getTeamInfo(ctx, user, { valued: false });
    return { team, teamId: team ? Number(team._id) : null, valued: null };
  });
  const team = entry.team;
  const board =
    team && team.completions.length > 0
      ? (await getScoreView(ctx, { live: user.is_admin === 1 })).board
      : null;
  entry.valued = answerAtBoardValues(entry.valued, board, team?.completions ?? [], (completions) =>
    CachedJson.of(teamsApi.teamInfo.response, team && { ...team, completions: [...completions] }),
  );
  return entry.valued.answer;
}

/** The team with its completions worth what the board the reader sees counts (admins: live). */
async function withBoardValues(ctx: AppContext, team: Team, live: boolean): Promise<Team> {
  if (team.completions.length === 0) return team;
  const { board } = await getScoreView(ctx, { live });
  return { ...team, completions: withBoardPoints(board, team.completions) };
}

/** The caller's team (docs/product.md §3), null when teamless; join requests are shown to the leader only. */
export async function getTeamInfo(
  ctx: AppContext,
  user: UserRow,
  options: { valued: boolean } = { valued: true },
): Promise<Team | null> {
  const membership = await findUserTeamId(ctx.database.db, user.id);
  if (!membership?.team_id) return null;
  const team = await findTeamById(ctx.database.db, membership.team_id);
  if (!team) return null;
  const [built] = await buildTeams(ctx, [team], { checksums: true, kept: true });
  if (!built) return null;
  const shown = team.leader_id === user.id ? built : { ...built, join_requests: [] };
  return options.valued ? withBoardValues(ctx, shown, user.is_admin === 1) : shown;
}

/** Teams a player could still join, by name. */
export async function listJoinableTeams(ctx: AppContext): Promise<TeamListEntry[]> {
  return (await listTeamsWithRoom(ctx.database.db, MAX_TEAM_SIZE)).map(presentListEntry);
}

/** Every team for the admin panel; checksums are for the leader only, so they are blank here. */
export async function listTeamsForAdmin(ctx: AppContext): Promise<Team[]> {
  const teams = await buildTeams(ctx, await listAllTeams(ctx.database.db), { checksums: false, kept: false });
  return Promise.all(teams.map((team) => withBoardValues(ctx, team, true)));
}
