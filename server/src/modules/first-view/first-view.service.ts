import type { FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { CachedJson } from '../../lib/cached-json.js';
import { visibleText } from '../../lib/html-text.js';
import { sanitizeHtmlNow } from '../../lib/sanitize-html.js';
import { sessionUser } from '../../plugins/session.js';
import type { FirstViewHook } from '../../plugins/web-app.js';
import { getPublicAnnouncements } from '../announcements/announcements.service.js';
import { activeFreeze } from '../event-state/event-state.service.js';
import { getLeaderboardPage } from '../leaderboard/leaderboard.service.js';
import { getPublicChallengeList } from '../challenges/challenges.service.js';
import { getOwnCompletionsAnswer } from '../leaderboard/completions-answer.js';
import { getSiteInfo } from '../site/site.service.js';
import { getUserInfoAnswer } from '../users/users.service.js';
import { challengePageAnswers, type SeedPart } from './challenge-page.js';
import { loadRuleIndex, pageCss, withHeadStyle, type IndexedRule } from './page-css.js';

/**
 * What web/src/entry-server.tsx exports (built by the web build into web/dist-ssr): the app's own
 * routes and components rendered to HTML from a seed of API answers.
 */
export interface FirstViewRenderer {
  FIRST_VIEW_PAGES: readonly string[];
  setSanitizer(sanitize: (html: string) => string): void;
  setVisibleText(visibleText: (html: string) => string): void;
  prepare(): Promise<void>;
  renderFirstView(url: string, seed: unknown): string;
}

/** The rows of the board's first page, as the web app asks for them (its PAGE_SIZE). */
export const FIRST_VIEW_BOARD_ROWS = 50;
/**
 * The element of a page's template whose content the first view replaces (web/index.html: the
 * body's first element, its layout shell inside; the page's stylesheet follows it).
 */
const ROOT_START = '<div id="root">';
const ROOT_END = '</main>\n    </div>';
/** The seed's element (web/src/app/first-view.ts FIRST_VIEW_DATA_ID). */
const FIRST_VIEW_DATA_ID = 'first-view-data';
/** How long after start-up the renderer is loaded when no page has asked for it yet. */
const WARM_UP_DELAY_MS = 1_000;
/** Rendered pages kept, each for one state of its data: a handful per page is plenty. */
const KEPT_PAGES_MAX = 64;
/** Rendered challenge pages kept (each a player's own, for one state of their answers). */
const KEPT_CHALLENGE_PAGES_MAX = 64;

/** The renderer's file, which the web build writes beside web/dist. */
function rendererFile(webDist: string): string {
  return path.join(webDist, '..', 'dist-ssr', 'entry-server.js');
}

/** The stylesheet's rule index, which the web build writes beside the renderer (page-css.ts). */
function ruleIndexFile(webDist: string): string {
  return path.join(webDist, '..', 'dist-ssr', 'page-css.json');
}

/** The renderer from the web build, ready to render (its pages' code loaded). */
export async function loadFirstViewRenderer(webDist: string): Promise<FirstViewRenderer> {
  const renderer = (await import(pathToFileURL(rendererFile(webDist)).href)) as FirstViewRenderer;
  renderer.setSanitizer(sanitizeHtmlNow);
  renderer.setVisibleText(visibleText);
  await renderer.prepare();
  return renderer;
}

/**
 * The web app's first-view hook, or undefined when the web build has no renderer (not built, or
 * built before it existed): every page is then sent as the browser-drawn app. The renderer (about
 * 0.76 MB of code) is loaded a second after the app is built, or by the first request for a page if
 * that comes first, not in the way of start-up; should it fail to load, pages are sent browser-drawn.
 */
export function firstViewHook(ctx: AppContext, webDist: string): FirstViewHook | undefined {
  if (!existsSync(rendererFile(webDist))) return undefined;
  let loading: Promise<FirstViewHook | null> | undefined;
  const load = () =>
    (loading ??= loadFirstViewRenderer(webDist).then(
      (renderer) => firstViewPages(ctx, renderer, loadRuleIndex(ruleIndexFile(webDist))),
      () => null,
    ));
  // Loaded a moment after start-up too, so the first visitor does not wait for it.
  setTimeout(() => void load(), WARM_UP_DELAY_MS).unref();
  return async (request, route, template) => {
    const firstView = await load();
    return firstView ? firstView(request, route, template) : null;
  };
}

/** A rendered page: the HTML, its ETag and compressed copies (made once, on first demand). */
export interface FirstViewPage {
  page: CachedJson;
  /** A signed-in caller's page names them as signed in: never kept by a shared cache. */
  personal: boolean;
}

/**
 * Renders the first views of the pages a visitor or player lands on, from the same cached answers
 * the API sends (site info, announcements, the board's first page as a visitor sees it, the
 * challenge list), so the HTML and the API never disagree. A page is rendered once per state of
 * those answers and kept: the next request for it costs a look-up and a send, as a cached API
 * answer does. The public pages and the leaderboard carry nothing personal but whether the caller
 * is signed in; what is the caller's own is asked for by the browser once the page is live.
 * Compete and the challenge page are the exceptions: Compete's cards are marked from the caller's
 * own answers (their record and their team's completions, each kept per player by the API), and
 * the challenge page is drawn from the caller's own answer for it (built at each request, as the
 * API does) and those two; they carry them. Only the user pages (the leaderboard, Compete, the
 * challenge page) look the caller up.
 * With the stylesheet's rule index (`rules`), the page's head carries the rules its HTML can
 * match instead of the shell's (page-css.ts).
 */
export function firstViewPages(
  ctx: AppContext,
  renderer: FirstViewRenderer,
  rules: readonly IndexedRule[] | null = null,
): FirstViewHook {
  const keptPages = new KeptPages(KEPT_PAGES_MAX);
  const keptChallengePages = new KeptPages(KEPT_CHALLENGE_PAGES_MAX);
  const pages = new Set(renderer.FIRST_VIEW_PAGES);

  return async function firstView(
    request: FastifyRequest,
    route: string,
    template: string,
  ): Promise<FirstViewPage | null> {
    if (!pages.has(route)) return null;
    const head = template.indexOf('</head>');
    const start = template.indexOf(ROOT_START);
    const end = template.indexOf(ROOT_END);
    if (head < 0 || start < head || end < start) return null;
    const siteInfo = await getSiteInfo(ctx);
    const announcements = await getPublicAnnouncements(ctx);
    const parts = [
      `"path":${JSON.stringify(route)}`,
      `"siteInfo":${siteInfo.json}`,
      `"announcements":${announcements.json}`,
    ];
    const versions = [route, siteInfo.etag(), announcements.etag()];
    const add = (part: SeedPart) => {
      parts.push(...part.parts);
      versions.push(...part.versions);
    };
    // What the page is rendered at: its path, and on the challenge page the challenge's id.
    let url = route;
    // The public pages are the same for everyone (no session is looked up); the leaderboard is a
    // user page, drawn for a signed-in caller only.
    let personal = false;
    if (route === '/leaderboard') {
      const caller = await callerOf(ctx, request);
      // A visitor is sent to /login by the browser, and an admin during a freeze sees the live
      // board, which is not the public one: both get the browser-drawn page.
      if (!caller) return null;
      if (caller.is_admin === 1 && (await activeFreeze(ctx)) !== null) return null;
      const board = await getLeaderboardPage(ctx, { limit: FIRST_VIEW_BOARD_ROWS, offset: 0 }, null, {
        live: false,
      });
      parts.push(
        `"authenticated":true`,
        `"leaderboard":{"rows":${board.answer.json},"total":${board.total}}`,
      );
      versions.push(board.answer.etag(), String(board.total));
      personal = true;
    }
    if (route === '/compete') {
      // A user page drawn from the list everyone gets and the caller's own answers its cards are
      // marked from (solved, the team's, locked by prerequisites), so nothing on it changes once
      // it is live. Kept per state of those answers: at an event's start most players share one.
      const caller = await callerOf(ctx, request);
      if (!caller) return null;
      // While the site is closed the browser draws the page (it says so from the site info).
      const list = await getPublicChallengeList(ctx).catch(() => null);
      if (!list) return null;
      parts.push(`"authenticated":true`, `"challenges":${list.answer.json}`);
      versions.push(list.answer.etag());
      add(await callerRecordAnswers(ctx, caller));
      personal = true;
    }
    if (route === '/challenge') {
      // A user page drawn from the caller's own answer for the challenge (built at each request,
      // as the API builds it) and their record (solved, rated) and team completions (the team's
      // mark), so nothing on it changes once it is live. Kept per state of those answers.
      const caller = await callerOf(ctx, request);
      if (!caller) return null;
      const search = new URL(request.url, 'http://page').searchParams;
      const challenge = await challengePageAnswers(ctx, caller, search, siteInfo.json);
      if (!challenge) return null;
      url = challenge.url;
      parts.push(`"authenticated":true`);
      add(challenge);
      add(await callerRecordAnswers(ctx, caller));
      personal = true;
    }
    // One player's challenge pages (one per challenge and state of their answers) have their own
    // room, so browsing them does not push the pages everyone shares out of theirs.
    const kept = route === '/challenge' ? keptChallengePages : keptPages;
    const key = versions.join('\n');
    let page = kept.get(key);
    if (!page) {
      const seed = `{${parts.join(',')}}`;
      const html = renderer.renderFirstView(url, JSON.parse(seed));
      // The seed goes in the head: data, not content (a page's text is its body's, nothing more).
      const seedElement = `<script type="application/json" id="${FIRST_VIEW_DATA_ID}">${escapeForScript(seed)}</script>`;
      const rest =
        template.slice(head, start + ROOT_START.length) +
        html +
        '</div>' +
        template.slice(end + ROOT_END.length);
      const body = template.slice(0, head) + seedElement + rest;
      page = { page: new CachedJson(rules ? withHeadStyle(body, pageCss(rules, rest)) : body), personal };
      kept.keep(key, page);
    }
    return page;
  };
}

/**
 * The caller's own answers a user page marks its content from and the navbar names them by: their
 * record (GET /api/user/info) and, for a team member, the team's completions
 * (GET /api/info/completions), the same answers the API keeps per player.
 */
async function callerRecordAnswers(ctx: AppContext, caller: UserRow): Promise<SeedPart> {
  const user = await getUserInfoAnswer(ctx, caller);
  const completions = caller.team_id === null ? null : await getOwnCompletionsAnswer(ctx, caller);
  const part = { parts: [`"user":${user.json}`], versions: [user.etag()] };
  if (completions) {
    part.parts.push(`"completions":${completions.json}`);
    part.versions.push(completions.etag());
  }
  return part;
}

/** Rendered pages, at most `max`: the one kept longest goes first. */
class KeptPages {
  private readonly pages = new Map<string, FirstViewPage>();
  constructor(private readonly max: number) {}

  get(key: string): FirstViewPage | undefined {
    return this.pages.get(key);
  }

  keep(key: string, page: FirstViewPage): void {
    if (this.pages.size >= this.max) this.pages.delete(this.pages.keys().next().value!);
    this.pages.set(key, page);
  }
}

/**
 * The signed-in caller, or null for a visitor and for credentials refused here (an API token is
 * for the API, not for pages).
 */
async function callerOf(ctx: AppContext, request: FastifyRequest) {
  try {
    return await sessionUser(ctx, request);
  } catch {
    return null;
  }
}

/**
 * JSON inside a script element: `<` can only occur inside its strings, where \u003c reads the
 * same, so no text in it (a competitor's name) can close the element or open a comment.
 */
export function escapeForScript(json: string): string {
  return json.replace(/</g, '\\u003c');
}
