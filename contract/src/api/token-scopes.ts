/**
 * What a personal API token may do: its scopes, and THE table of what each route asks of a token.
 * Every route of ROUTES is listed (the type makes a new route without a rule fail to compile), and
 * the routes registered by hand name theirs with tokenRuleForPath; the server refuses a token on a
 * route with no rule, and a test walks every registered route for one. A scope is necessary, never
 * sufficient: the route's own guard (the staff table, api/staff-roles.ts) still asks the user's role.
 * Zod-free: the web imports it through client.ts. docs/decisions/0011-staff-roles.md.
 */
import { DOWNLOAD_PATH_PREFIX, ROUTES, type Route } from './routes.js';
import type { Role } from './staff-roles.js';

/**
 * read: the GET calls a user may make (and the reads sent as POST); play: flags, hints, instances,
 * writeups, ratings and the team; author: the challenge work the role allows (challenge.yml import
 * and export for CI); admin: the other admin calls the role allows.
 */
export const TOKEN_SCOPES = ['read', 'play', 'author', 'admin'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** What a token is given when its creation names no scopes. */
export const DEFAULT_TOKEN_SCOPES: readonly TokenScope[] = ['read', 'play'];

/** The scopes a role may put on a token: never more than the role itself may do. */
export function scopesForRole(role: Role): readonly TokenScope[] {
  switch (role) {
    case 'admin':
      return TOKEN_SCOPES;
    case 'author':
      return ['read', 'play', 'author'];
    case 'monitor':
      return ['read', 'play', 'admin'];
    default:
      return ['read', 'play'];
  }
}

/** A route's demand on a token: one scope, or 'session' (a token is never enough). */
export type TokenRule = TokenScope | 'session';

export const TOKEN_MESSAGES = {
  /** The token lacks the scope the route asks for. */
  outsideScopes: 'This token does not allow that.',
  /** Roles, admins, bans, settings, tokens and the account: only a signed-in person changes them. */
  sessionOnly: 'This needs a signed-in session.',
} as const;

type Rules = { [A in keyof typeof ROUTES]: Record<keyof (typeof ROUTES)[A], TokenRule> };

const RULES: Rules = {
  auth: {
    authenticated: 'read',
    adminAuthenticated: 'read',
    logout: 'session',
    localLogin: 'session',
  },
  site: { siteInfo: 'read', health: 'read' },
  users: { userInfo: 'read', practiceSolves: 'read', pickDivision: 'session' },
  tokens: { createToken: 'session', listTokens: 'read', deleteToken: 'session' },
  teams: {
    teamInfo: 'read',
    teamList: 'read',
    createTeam: 'play',
    requestTeam: 'play',
    updateTeam: 'play',
    replaceLeader: 'play',
    removeMember: 'play',
    addMember: 'play',
  },
  challenges: {
    challengeList: 'read',
    // A read sent as a POST: it changes nothing.
    challengeDetail: 'read',
    submitFlag: 'play',
    rateChallenge: 'play',
    unlockHint: 'play',
  },
  leaderboard: {
    leaderboard: 'read',
    getCompletions: 'read',
    ownCompletions: 'read',
    scoreGraph: 'read',
    ctftime: 'read',
  },
  events: { stream: 'read' },
  admin: {
    getTeams: 'admin',
    getUsers: 'admin',
    fetchAdmins: 'admin',
    forceUpdate: 'admin',
    removeTeam: 'session',
    removeUser: 'session',
    removeAdmin: 'session',
    promoteAdmin: 'session',
    setRole: 'session',
    setCompeting: 'session',
    getUploads: 'author',
    fetchChallenges: 'author',
    updateChallenge: 'author',
    createChallenge: 'author',
    toggleStatus: 'author',
    deleteChallenge: 'author',
    scheduleRelease: 'author',
    upload: 'author',
    deleteFile: 'author',
    getSolvers: 'admin',
    revealTeamFlag: 'admin',
    // Its own bearer token (ADMIN_API_TOKEN), never a personal one.
    serviceTeamFlag: 'session',
    getSiteInfo: 'admin',
    updateSiteInfo: 'session',
    freezeScoreboard: 'admin',
    exportScoreboardCsv: 'admin',
    exportSolvesCsv: 'admin',
    exportScoreboardJson: 'admin',
    exportSolvesJson: 'admin',
    importChallenges: 'author',
    exportChallenges: 'author',
    eventArchive: 'admin',
    getSetup: 'admin',
    addSampleChallenges: 'author',
  },
  settings: {
    getSettings: 'admin',
    updateSettings: 'session',
    uploadLogo: 'session',
    getDivisions: 'admin',
    setDivisions: 'session',
  },
  integrity: {
    getAudit: 'admin',
    // Bans, hiding and their reversal.
    moderate: 'session',
    getSubmissions: 'admin',
    getSubmissionsCsv: 'admin',
    getSignals: 'admin',
  },
  announcements: {
    listAnnouncements: 'read',
    createAnnouncement: 'admin',
    updateAnnouncement: 'admin',
    deleteAnnouncement: 'admin',
    adminAnnouncements: 'admin',
  },
  webhook: { webhookStatus: 'admin' },
  awards: { giveAward: 'admin', listAwards: 'admin', deleteAward: 'admin' },
  instances: {
    startInstance: 'play',
    getInstance: 'read',
    renewInstance: 'play',
    stopInstance: 'play',
    adminInstances: 'admin',
    adminStopInstance: 'admin',
    // Admins, authors and monitors read the policy (the role guard decides who): a plain read.
    instancePolicy: 'read',
    instanceEngine: 'admin',
  },
  writeups: {
    submitWriteup: 'play',
    myWriteups: 'read',
    writeupFile: 'read',
    publishedWriteups: 'read',
    adminWriteups: 'admin',
    reviewWriteup: 'admin',
    writeupsZip: 'admin',
  },
  // Signing up, in and out, passwords and ways in belong to the person at the keyboard, never a script.
  accounts: {
    registrationCode: 'session',
    register: 'session',
    emailLogin: 'session',
    forgotPassword: 'session',
    resetPassword: 'session',
    identities: 'read',
    addEmailIdentity: 'session',
    unlinkIdentity: 'session',
    adminSignIns: 'admin',
    resendConfirmation: 'admin',
    blockedEmails: 'admin',
    // Like a ban: only a signed-in admin.
    blockEmail: 'session',
  },
};

const key = (method: string, path: string) => `${method} ${path}`;
const BY_ROUTE = new Map<string, TokenRule>();
for (const [area, routes] of Object.entries(ROUTES)) {
  const rules = RULES[area as keyof Rules] as Record<string, TokenRule>;
  for (const [name, r] of Object.entries(routes as Record<string, Route>)) {
    BY_ROUTE.set(key(r.method, r.path), rules[name]!);
  }
}

/**
 * The routes outside ROUTES that may know their caller: a challenge file's download (a read), and
 * the site's own pages and files, which a token never needs (answered as to a visitor otherwise).
 */
const RAW_RULES: ReadonlyArray<readonly [string, TokenRule]> = [[`${DOWNLOAD_PATH_PREFIX}*`, 'read']];
for (const [path, rule] of RAW_RULES) BY_ROUTE.set(key('GET', path), rule);

/** What a route (method and path as registered; HEAD as its GET) asks of a token; undefined: none is declared. */
export function tokenRuleFor(route: Pick<Route, 'method' | 'path'>): TokenRule | undefined {
  const method = route.method === ('HEAD' as string) ? 'GET' : route.method;
  return BY_ROUTE.get(key(method, route.path));
}

/** Whether a token with these scopes may make a call that asks for this rule. */
export function tokenAllows(scopes: readonly TokenScope[], rule: TokenRule | undefined): boolean {
  return rule !== undefined && rule !== 'session' && scopes.includes(rule);
}
