import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type {
  Announcement,
  ChallengeDetail,
  InstanceState,
  LeaderboardRow,
  PublicChallenge,
  SiteInfo,
  User,
} from '@ctf/contract';
import type { ApiResult } from '../lib/api';
import { announcementsQuery } from '../lib/announcements';
import { queryKeys } from '../lib/query';
import { authenticatedQuery, currentUserQuery } from '../lib/auth';
import { siteInfoQuery } from '../lib/site-info';
import { challengeListQuery } from '../features/challenges/api/challenge-list';
import { completionsQuery } from '../lib/completions';
import { instanceKey, instanceViewOf } from '../features/challenges/api/instance';
import { fetchMyRank, leaderboardPageQuery } from '../features/leaderboard/api/leaderboard';

/**
 * The pages whose first view the server renders (server/src/modules/first-view): what a visitor or
 * player lands on. Every other page is drawn by the browser as before.
 */
export const FIRST_VIEW_PAGES = [
  '/',
  '/leaderboard',
  '/compete',
  '/challenge',
  '/announcements',
  '/rules',
] as const;

/**
 * The answers the server rendered a first view from: the same cached answers its API sends (and
 * nothing personal but whether the caller is signed in). The page carries them, and the browser
 * seeds its query cache with them before it hydrates, so its first render is the server's and it
 * asks for none of them again.
 */
export interface FirstViewSeed {
  path: string;
  /** GET /api/authenticated's answer (the user pages' guard), on a user page only. */
  authenticated?: boolean;
  siteInfo: SiteInfo;
  announcements: Announcement[];
  /** The board's first page as a visitor sees it (GET /api/info/leaderboard?limit=50&offset=0). */
  leaderboard?: { rows: LeaderboardRow[]; total: number };
  /** On Compete: the released challenges (GET /api/ctf/challenges, the same for everyone) ... */
  challenges?: PublicChallenge[];
  /**
   * On the challenge page: the caller's own answers for the challenge of the page's `id`, as
   * the page asks for them: POST /api/ctf/challenge and, for a challenge with a container,
   * GET /api/ctf/instance (its answer or refusal: none yet, a failed start).
   */
  challenge?: { id: string; detail: ChallengeDetail; instance?: ApiResult<InstanceState> };
  /**
   * On Compete and the challenge page, the caller's own answers their marks are drawn from:
   * GET /api/user/info ...
   */
  user?: User;
  /** ... and, for a team member, GET /api/info/completions. */
  completions?: Awaited<ReturnType<typeof completionsQuery.queryFn>>;
}

/** The element that carries the seed in a server-rendered page (JSON, never run as a script). */
export const FIRST_VIEW_DATA_ID = 'first-view-data';

export function seedFirstView(client: QueryClient, seed: FirstViewSeed): void {
  if (seed.authenticated !== undefined) client.setQueryData(authenticatedQuery.queryKey, seed.authenticated);
  client.setQueryData(siteInfoQuery.queryKey, seed.siteInfo);
  client.setQueryData(announcementsQuery.queryKey, seed.announcements);
  if (seed.leaderboard)
    client.setQueryData(leaderboardPageQuery('', 0).queryKey, { ...seed.leaderboard, callerRank: null });
  if (seed.challenges)
    client.setQueryData(challengeListQuery.queryKey, { kind: 'list', challenges: seed.challenges });
  if (seed.user) client.setQueryData(currentUserQuery.queryKey, seed.user);
  if (seed.completions) client.setQueryData(completionsQuery.queryKey, seed.completions);
  if (seed.challenge) {
    const { id, detail, instance } = seed.challenge;
    client.setQueryData(queryKeys.challenge(id), detail);
    if (instance) client.setQueryData(instanceKey(id), instanceViewOf(instance));
  }
}

/** The seed a server-rendered page carries, or null when the browser draws the page itself. */
export function readFirstViewSeed(): FirstViewSeed | null {
  const text = document.getElementById(FIRST_VIEW_DATA_ID)?.textContent;
  if (!text) return null;
  try {
    const seed = JSON.parse(text) as FirstViewSeed;
    if (seed.path !== (window.location.pathname.replace(/\/+$/, '') || '/')) return null;
    // The challenge page's answers are for the challenge its address names (ChallengePage's id).
    if (seed.challenge && seed.challenge.id !== new URLSearchParams(window.location.search).get('id')?.trim())
      return null;
    return seed;
  } catch {
    return null;
  }
}

/**
 * After hydration, what is the caller's own: on the leaderboard, their rank (the "My position"
 * button), which the shared first view leaves out. (The navbar's user, a player's marks and a
 * team's solves are asked for by their own queries, which start once the page is live.)
 */
export function personaliseFirstView(client: QueryClient, seed: FirstViewSeed): void {
  if (!seed.leaderboard || !seed.authenticated) return;
  void fetchMyRank('')
    .then((rank) =>
      client.setQueryData(
        leaderboardPageQuery('', 0).queryKey,
        (page: { rows: LeaderboardRow[]; total: number; callerRank: number | null } | undefined) =>
          page ? { ...page, callerRank: rank } : page,
      ),
    )
    .catch(() => undefined);
}

/** What runs once the server-rendered page itself is hydrated (set by main.tsx before it hydrates). */
let afterFirstView: (() => void) | null = null;

export function runAfterFirstView(run: () => void): void {
  afterFirstView = run;
}

/**
 * Called by every page (app/router.tsx): its effect runs once the page is hydrated. The page sits
 * in the layout's Suspense boundary, which React hydrates after the layout around it, so an effect
 * of the layout would run first, and an answer that then arrived (the caller's rank, the navbar's
 * user) would reach the page before its own hydrating render: a mismatch with the server's HTML.
 */
export function useAfterFirstView(): void {
  useEffect(() => {
    const run = afterFirstView;
    afterFirstView = null;
    run?.();
  }, []);
}
