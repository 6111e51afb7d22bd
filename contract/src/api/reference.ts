/**
 * The API reference's catalogue (GET /api/openapi.json, GET /api/docs): every route with a line
 * saying what it does, next to the contract's endpoint that carries its schemas. The server builds
 * the OpenAPI document from this and the zod schemas; nothing of the document is written by hand.
 * Server-side only (index.ts): the web's entry (client.ts) never imports it.
 */
import type { Endpoint } from './common.js';
import * as admin from './admin.js';
import * as announcements from './announcements.js';
import * as auth from './auth.js';
import * as challenges from './challenges.js';
import * as divisions from './divisions.js';
import * as instances from './instances.js';
import * as integrity from './integrity.js';
import * as leaderboard from './leaderboard.js';
import { POPUP_PROVIDERS } from './oauth.js';
import { DOWNLOAD_PATH_PREFIX, LOGO_PATH, ROUTES } from './routes.js';
import * as settings from './settings.js';
import * as site from './site.js';
import * as teams from './teams.js';
import * as tokens from './tokens.js';
import * as users from './users.js';
import * as webhook from './webhook.js';
import * as awards from './awards.js';
import * as writeups from './writeups.js';
import * as accounts from './accounts.js';

/**
 * Who may call a route: 'anonymous' (anyone; the same answer for all), 'public' (anyone; the
 * answer may depend on the session), 'user' and 'admin' (a session; 'admin' is a staff route, whose
 * roles the table in api/staff-roles.ts names), 'token' (a bearer token from
 * the configuration instead of a session).
 */
export type Access = 'anonymous' | 'public' | 'user' | 'admin' | 'token';

/** The paths of the reference itself and of the Prometheus metrics. */
export const OPENAPI_PATH = '/api/openapi.json';
export const API_DOCS_PATH = '/api/docs';
export const METRICS_PATH = '/metrics';

type Summaries = { [A in keyof typeof ROUTES]: Record<keyof (typeof ROUTES)[A], string> };

/** One line per route of ROUTES; the type makes a new route without one fail to compile. */
const SUMMARIES: Summaries = {
  auth: {
    authenticated: 'Whether the caller has a session (200 Authorized, else 401).',
    adminAuthenticated: 'Whether the caller is an admin (200, else 401 or 403).',
    logout: 'Ends the session and clears its cookie.',
    localLogin:
      'Signs in by name on a local trial (loopback PUBLIC_URL and HOST, no OAuth app, not production), from loopback only.',
  },
  site: {
    siteInfo: 'The public settings: event window, name, texts, sign-in providers, divisions.',
    health: 'Whether the database (and Redis, when configured) answers.',
  },
  users: {
    userInfo: "The caller's profile: team, points, solves.",
    practiceSolves: "The caller's practice solves (after the event, never scored).",
    pickDivision: 'The caller picks a division (null: none), until their first solve.',
  },
  tokens: {
    createToken:
      'Creates a personal API token (`ctf_...`) with scopes and an expiry (signed-in session only): the answer is the only time it is shown.',
    listTokens: "The caller's API tokens: name, scopes, creation, expiry and last use (never the token).",
    deleteToken:
      "Revokes one of the caller's API tokens (signed-in session only): refused at once on every process.",
  },
  teams: {
    teamInfo: "The caller's team with its members (and join requests, for the leader).",
    teamList: 'Every team one may ask to join.',
    createTeam: 'Creates a team led by the caller.',
    requestTeam: 'Asks to join a team.',
    updateTeam: "Renames the caller's team (leader only).",
    replaceLeader: 'Leaves the team; a leader hands the team to another member.',
    removeMember: 'Removes a member (leader only).',
    addMember: 'Accepts a join request (leader only).',
  },
  challenges: {
    challengeList: 'Every released challenge with its points and solve count.',
    challengeDetail: 'One challenge with its files, hints and whether the caller solved it.',
    submitFlag: 'Submits a flag for a challenge.',
    rateChallenge: 'Rates a solved challenge from 1 to 5.',
    unlockHint: "Unlocks a hint for the caller's competitor (its cost is taken from the score).",
  },
  leaderboard: {
    leaderboard: 'The leaderboard: the whole board, or a page of it (limit, offset, around=me, q, division).',
    getCompletions: "The caller's completions (the body is validated and otherwise ignored).",
    ownCompletions:
      "The caller's completions, as get-completions answers them: a read the browser can revalidate by its ETag.",
    scoreGraph: "The best competitors' cumulative points over time.",
    ctftime: "The standings in CTFtime's JSON scoreboard format.",
  },
  events: {
    stream:
      'The live event stream (Server-Sent Events): announcement, first-blood, leaderboard, challenges, site.',
  },
  admin: {
    getTeams: 'Every team with its moderation state.',
    getUsers: 'Every user with their moderation state.',
    fetchAdmins: 'Every admin.',
    forceUpdate: "Drops the server's caches so every answer is computed again.",
    removeTeam: 'Deletes a team (its members stay, without a team).',
    removeUser: 'Deletes a user.',
    removeAdmin: "Takes a user's admin rights away.",
    promoteAdmin: 'Makes a user an admin.',
    setRole: "Sets a user's staff role: player, monitor, author or admin (the last admin keeps it).",
    setCompeting:
      'Marks a monitor or author as competing (counted in public lists and first bloods), or not.',
    getUploads: 'The names of the uploaded challenge files.',
    fetchChallenges: 'Every challenge as admins edit it, flags included (an author: the ones it owns).',
    updateChallenge: 'Changes a challenge.',
    createChallenge: 'Creates a challenge.',
    toggleStatus: 'Takes a challenge out of order, or back.',
    deleteChallenge: 'Deletes a challenge.',
    scheduleRelease: 'Sets the release time of several challenges at once (null: released now).',
    upload: "Uploads a challenge file (multipart, field 'file').",
    deleteFile: 'Deletes an uploaded file.',
    getSolvers: 'Who solved each challenge, and each first blood.',
    revealTeamFlag: "Shows a competitor's per-team flag (written to the audit log).",
    serviceTeamFlag: "A competitor's per-team flag for an author's service (Bearer ADMIN_API_TOKEN).",
    getSiteInfo: 'Whether the site is open.',
    updateSiteInfo: 'Opens or closes the site.',
    freezeScoreboard: 'Sets the scoreboard freeze time, or lifts it (null).',
    exportScoreboardCsv: 'The scoreboard as CSV (?division=).',
    exportSolvesCsv: 'Every credited solve as CSV (?division=).',
    exportScoreboardJson: 'The scoreboard as JSON (?division=).',
    exportSolvesJson: 'Every credited solve as JSON (?division=).',
    importChallenges:
      "Imports a ZIP of challenge.yml folders (multipart, field 'file'; ?dry_run=1 only checks).",
    exportChallenges: 'Every challenge as challenge.yml folders with their files, in one ZIP.',
    eventArchive: 'The event as a static site (scoreboard, challenges, announcements), in one ZIP.',
    getSetup: "The set-up checklist's facts: challenges, sign-in methods and their redirect URLs, webhook.",
    addSampleChallenges: 'Imports the sample challenges; refused once the site has any challenge.',
  },
  settings: {
    getSettings: "The event's settings.",
    updateSettings: 'Changes the settings a body names.',
    uploadLogo: "Uploads the site's logo (multipart, field 'file'; PNG, JPEG or WebP).",
    getDivisions: 'Every division with its e-mail domains.',
    setDivisions: 'Replaces the divisions.',
  },
  integrity: {
    getAudit: 'The admin audit log, newest first, by pages.',
    moderate: 'Hides or bans a user or team (with a reason), or reverses that.',
    getSubmissions: 'The submission log (every flag attempt), filtered, by pages.',
    getSubmissionsCsv: 'The filtered submission log as CSV.',
    getSignals: 'Cheating signals for a human to weigh.',
  },
  announcements: {
    listAnnouncements: 'Every announcement, pinned first, then newest first.',
    createAnnouncement: 'Posts an announcement.',
    updateAnnouncement: 'Edits an announcement.',
    deleteAnnouncement: 'Deletes an announcement.',
    adminAnnouncements: 'Every announcement with its Markdown, for editing.',
  },
  awards: {
    giveAward: 'Gives a user or a team points (negative: a penalty) with a reason; answers its id.',
    listAwards: 'Every award, newest first, with who got it.',
    deleteAward: 'Deletes an award: it stops counting everywhere.',
  },
  webhook: {
    webhookStatus: "The Discord webhook's state and its latest deliveries.",
  },
  instances: {
    startInstance:
      "Starts the caller's team's container of a challenge (one per team; answers 'starting' at once).",
    getInstance: "The caller's team's container of a challenge: state, address, expiry (404: none).",
    renewInstance: "Gives the team's running container its lifetime again (up to four lifetimes in all).",
    stopInstance: "Stops and removes the team's container of a challenge.",
    adminInstances:
      'Every instance: team, challenge, age, address (admins only), state, and a failed start’s engine message.',
    adminStopInstance: 'Stops any instance (or dismisses a failed start).',
    instancePolicy:
      "The operator's instance policy: capabilities a challenge may add, ceilings, image prefixes, runtime.",
    instanceEngine: "Whether the challenge host's Docker engine answers now (and why not).",
  },
  writeups: {
    submitWriteup:
      "Hands in (or replaces) the caller's competitor's writeup of a solved challenge: an https link or a PDF or Markdown file (multipart).",
    myWriteups: "The caller's competitor's writeups: challenge, link or file, when, reviewed, published.",
    writeupFile:
      "A writeup's file: the caller's competitor's own, a published one after the event, or any for staff who may list writeups (inline=1: Markdown as sandboxed plain text; otherwise, and a PDF always, a download).",
    publishedWriteups: 'The published writeups of a challenge once the event has ended (empty before).',
    adminWriteups: 'Every writeup, filtered by challenge, competitor or division.',
    reviewWriteup: 'Marks a writeup reviewed or not, and publishes or unpublishes it (audited).',
    writeupsZip: 'Every writeup in one ZIP with index.csv (audited).',
  },
  accounts: {
    registrationCode:
      "Checks the site's registration code (403 when wrong) and gives the browser a one-hour pass that a new account's sign-in brings.",
    register:
      'Signs up with username, e-mail and password (when SMTP is configured): the same answer whether or not the address is known; a confirmation link is mailed.',
    emailLogin: 'Signs in with e-mail and password: 401 wrong, 403 unconfirmed, 429 too many attempts.',
    forgotPassword:
      'Mails a password reset link (valid 1 h) if an account uses the address; the same answer always.',
    identities:
      "The caller's ways in: provider, name (handle or address, never a secret) and when it was linked.",
    addEmailIdentity:
      "Adds an e-mail address and password as a way into the caller's account (confirmed by a mailed link).",
    unlinkIdentity: "Removes one of the caller's ways in (400 for the last one).",
    adminSignIns:
      "Each user's ways in (provider names, never secrets) and whether their e-mail sign-in is confirmed.",
    resendConfirmation: "Mails a user's unconfirmed e-mail address a new confirmation link (audited).",
    blockedEmails: 'The blocked e-mail addresses.',
    blockEmail:
      'Blocks or unblocks an e-mail address: no e-mail sign-up, sign-in or reset with it (audited).',
    resetPassword:
      "Sets a new password with a reset link's token (used once); every session of the account ends.",
  },
};

/** A route whose answer is not one of the contract's JSON shapes (a page, a stream, a file). */
export interface RawRoute {
  access: Access;
  /** The 200 answer's media type, or 'redirect' for a 302. */
  produces: string;
  /** The statuses it may answer besides 200 (or 302), with what they mean. */
  statuses?: Record<number, string>;
}

/** One route of the reference: its area (the document's tag), name, method, path and line. */
export interface ReferenceEntry {
  area: string;
  name: string;
  method: 'GET' | 'POST';
  /** The path as the server registers it (`*` is a wildcard: the rest of the path). */
  path: string;
  summary: string;
  /** The contract's endpoint (schemas of the body, the query and the answer), or the raw route's kind. */
  route: { endpoint: Endpoint } | { raw: RawRoute };
}

const AREA_MODULES = [admin, announcements, auth, challenges, divisions, integrity, leaderboard];
const MORE_MODULES = [settings, site, teams, tokens, users, webhook, instances, awards, writeups, accounts];

function isEndpoint(value: unknown): value is Endpoint {
  return (
    typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'response' in value
  );
}

/** The routes outside ROUTES' JSON endpoints: the live stream, sign-in, files, and the reference. */
function rawRoutes(): ReferenceEntry[] {
  const entry = (
    area: string,
    name: string,
    path: string,
    summary: string,
    raw: RawRoute,
  ): ReferenceEntry => ({ area, name, method: 'GET', path, summary, route: { raw } });
  return [
    entry('auth', 'popupScript', '/api/auth/popup.js', "The sign-in popup's script.", {
      access: 'anonymous',
      produces: 'text/javascript',
    }),
    ...POPUP_PROVIDERS.flatMap((provider) => [
      entry(
        'auth',
        `${provider}Login`,
        `/api/auth/${provider}`,
        `Starts a ${provider} sign-in: redirects to the provider (a page with the error when it is not configured).`,
        {
          access: 'anonymous',
          produces: 'redirect',
          statuses: { 200: 'The provider is not configured: a page saying so.' },
        },
      ),
      entry(
        'auth',
        `${provider}Callback`,
        `/api/auth/${provider}/callback`,
        `Where ${provider} sends the browser back: a page that signs in and tells the site's window.`,
        {
          access: 'anonymous',
          produces: 'text/html',
          statuses: {
            400: 'The sign-in failed (state, code or provider refused).',
            403: 'The account is banned, or the registration rules refuse a new account.',
            409: 'A new account would share a verified address with an existing one: sign in and link instead.',
          },
        },
      ),
    ]),
    entry(
      'accounts',
      'confirmEmail',
      '/api/auth/email/confirm',
      'Follows an e-mailed confirmation link (token, valid 24 h, used once): redirects to /login?confirmed=1, or ?confirmed=0 when the token is not valid.',
      { access: 'anonymous', produces: 'redirect' },
    ),
    entry('events', 'stream', ROUTES.events.stream.path, SUMMARIES.events.stream, {
      access: 'anonymous',
      produces: 'text/event-stream',
      statuses: { 429: 'Too many open streams from this address.' },
    }),
    entry('challenges', 'download', `${DOWNLOAD_PATH_PREFIX}*`, 'Downloads a challenge file by its name.', {
      access: 'user',
      produces: 'application/octet-stream',
      statuses: { 404: 'No such file, or not one a challenge the caller may see lists.' },
    }),
    entry('settings', 'logo', LOGO_PATH, "The site's uploaded logo.", {
      access: 'anonymous',
      produces: 'image/*',
      statuses: { 404: 'No logo was uploaded.' },
    }),
    entry('reference', 'openapi', OPENAPI_PATH, 'This document (OpenAPI 3.1).', {
      access: 'anonymous',
      produces: 'application/json',
    }),
    entry('reference', 'docs', API_DOCS_PATH, 'This document as a page to read.', {
      access: 'anonymous',
      produces: 'text/html',
    }),
    entry('operations', 'metrics', METRICS_PATH, 'Prometheus metrics (Bearer METRICS_TOKEN).', {
      access: 'token',
      produces: 'text/plain',
      statuses: {
        401: 'No bearer token, or the wrong one.',
        404: 'METRICS_TOKEN is not set: metrics are off.',
      },
    }),
  ];
}

/**
 * Every route of the site's API, in ROUTES' order and then the raw ones. Throws when a route of
 * ROUTES has no endpoint in the contract and is not a raw route either (the test builds it).
 */
export function apiReference(): ReferenceEntry[] {
  const endpoints = new Map<string, Endpoint>();
  for (const module of [...AREA_MODULES, ...MORE_MODULES]) {
    for (const value of Object.values(module)) {
      if (isEndpoint(value)) endpoints.set(`${value.method} ${value.path}`, value);
    }
  }
  const raw = rawRoutes();
  const rawKeys = new Set(raw.map((r) => `${r.method} ${r.path}`));
  const entries: ReferenceEntry[] = [];
  for (const [area, routes] of Object.entries(ROUTES)) {
    for (const [name, r] of Object.entries(
      routes as Record<string, { method: 'GET' | 'POST'; path: string }>,
    )) {
      const key = `${r.method} ${r.path}`;
      const endpoint = endpoints.get(key);
      if (endpoint) {
        const summary = (SUMMARIES as Record<string, Record<string, string>>)[area]![name]!;
        entries.push({ area, name, method: r.method, path: r.path, summary, route: { endpoint } });
      } else if (!rawKeys.has(key)) {
        throw new Error(`The contract has no endpoint for ${key} (ROUTES.${area}.${name})`);
      }
    }
  }
  return [...entries, ...raw];
}
