import { MAX_TEAM_SIZE, teamsApi, type Team, type TeamCompletion, type TeamListEntry } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { TeamRow, UserRow } from '../../db/schema.js';
import { CachedJson } from '../../lib/cached-json.js';
import { KeyedCache } from '../../lib/invalidation.js';
import { listAwardsOfTeams } from '../awards/awards.service.js';
import { getScoreView } from '../scoreboard/scoreboard.service.js';
import { withBoardPoints } from '../scoreboard/scoreboard.views.js';
import { followSolves } from '../scoreboard/solve-feed.js';
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

/** Teams in docs/product.md's shape; checksums of join requests only when `checksums` says so. */
async function buildTeams(ctx: AppContext, teams: readonly TeamRow[], checksums: boolean): Promise<Team[]> {
  const db = ctx.database.db;
  const ids = teams.map((t) => t.id);
  const [members, requests, solves, awards] = await Promise.all([
    listMembers(db, ids),
    listJoinRequests(db, ids),
    listTeamSolves(db, ids),
    listAwardsOfTeams(ctx, ids),
  ]);
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
    const completions = presentCompletions(solves.filter((s) => s.team_id === team.id));
    result.push(
      presentTeam(team, own, leaderName ?? '', joinRequests, completions, awards.get(team.id) ?? []),
    );
  }
  return result;
}

/**
 * A team's completions as the scoring counts them (docs/product.md §12): each challenge once, credited
 * to the member whose solve recorded with the team came first. Empty for a vanished team.
 */
export async function listTeamCompletions(ctx: AppContext, teamId: number): Promise<TeamCompletion[]> {
  return presentCompletions(await listTeamSolves(ctx.database.db, [teamId]));
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
  valued: { points: number[]; answer: CachedJson } | null;
}

const teamInfoCaches = new WeakMap<AppContext, KeyedCache<number, TeamInfoEntry>>();

/**
 * GET /api/team/info for the caller, serialised once per change and kept per user (the leader's
 * answer differs from a member's). It shows the team, its members and requests, and its solves.
 */
export async function getTeamInfoAnswer(ctx: AppContext, user: UserRow): Promise<CachedJson> {
  let cache = teamInfoCaches.get(ctx);
  if (!cache) {
    const solvesSince = followSolves(ctx.database);
    cache = new KeyedCache<number, TeamInfoEntry>(
      ctx.bus,
      // Awards are an admin's rare act: any of them drops every kept answer.
      ['teams', 'users', 'solves', 'challenges', 'awards', 'awards-added'],
      USER_ANSWER_CACHE_SIZE,
      {
        // A correct flag changes the answers of its solver's team only.
        topics: ['solves-added'],
        stale: async () => {
          const solves = await solvesSince();
          if (!solves) return null;
          const teams = new Set(solves.map((s) => s.team_id));
          const solvers = new Set(solves.map((s) => s.user_id));
          return (userId, entry) => solvers.has(userId) || (entry.teamId !== null && teams.has(entry.teamId));
        },
      },
    );
    teamInfoCaches.set(ctx, cache);
  }
  const entry = await cache.get(user.id, async () => {
    const team = await getTeamInfo(ctx, user, { valued: false });
    return { team, teamId: team ? Number(team._id) : null, valued: null };
  });
  const team = entry.team === null ? null : await withBoardValues(ctx, entry.team, user.is_admin === 1);
  const points = team?.completions.map((c) => c.points) ?? [];
  const kept = entry.valued;
  if (kept && kept.points.length === points.length && kept.points.every((p, i) => p === points[i]))
    return kept.answer;
  const answer = CachedJson.of(teamsApi.teamInfo.response, team);
  entry.valued = { points, answer };
  return answer;
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
  const [built] = await buildTeams(ctx, [team], true);
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
  const teams = await buildTeams(ctx, await listAllTeams(ctx.database.db), false);
  return Promise.all(teams.map((team) => withBoardValues(ctx, team, true)));
}
