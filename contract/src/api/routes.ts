/**
 * Every endpoint's method and path, by area: the one place they are written. The api/<area>.ts
 * files add the zod body and response to each; the web's entry (client.ts) sends requests with
 * these alone, so zod and the schemas stay out of the browser's bundle. No zod import here.
 */
export interface Route<M extends 'GET' | 'POST' = 'GET' | 'POST'> {
  readonly method: M;
  readonly path: string;
  /** A GET that acts: see Endpoint.acts (common.ts). */
  readonly acts?: true;
}

const get = (path: string): Route<'GET'> => ({ method: 'GET', path });
const post = (path: string): Route<'POST'> => ({ method: 'POST', path });
/**
 * A GET that changes something or hands out an export: kept a GET where the spec or a download
 * needs one, and answered only to our own pages' fetches and to top-level navigations.
 */
const acting = (path: string): Route<'GET'> => ({ method: 'GET', path, acts: true });

export const ROUTES = {
  auth: {
    authenticated: get('/api/authenticated'),
    adminAuthenticated: get('/api/admin/authenticated'),
    logout: acting('/api/auth/logout'),
    localLogin: post('/api/auth/local'),
  },
  site: {
    siteInfo: get('/api/info/site'),
    health: get('/api/health'),
  },
  users: {
    userInfo: get('/api/user/info'),
    practiceSolves: get('/api/user/practice'),
    pickDivision: post('/api/user/division'),
  },
  /** Personal API tokens (issue 31): under /api/user, the caller's own. */
  tokens: {
    createToken: post('/api/user/tokens'),
    listTokens: get('/api/user/tokens'),
    deleteToken: post('/api/user/tokens/delete'),
  },
  teams: {
    teamInfo: get('/api/team/info'),
    teamList: get('/api/team/list'),
    createTeam: post('/api/team/create'),
    requestTeam: post('/api/team/request'),
    updateTeam: post('/api/team/update'),
    replaceLeader: post('/api/team/replace-leader'),
    removeMember: post('/api/team/remove-member'),
    addMember: post('/api/team/add-member'),
  },
  challenges: {
    challengeList: get('/api/ctf/challenges'),
    challengeDetail: post('/api/ctf/challenge'),
    submitFlag: post('/api/ctf/submit-flag'),
    rateChallenge: post('/api/ctf/rate-challenge'),
    unlockHint: post('/api/ctf/unlock-hint'),
  },
  leaderboard: {
    leaderboard: get('/api/info/leaderboard'),
    getCompletions: post('/api/info/get-completions'),
    ownCompletions: get('/api/info/completions'),
    scoreGraph: get('/api/info/scoreboard/graph'),
    ctftime: get('/api/ctftime'),
  },
  events: {
    /** Server-Sent Events (api/live-events.ts), outside the JSON contract. */
    stream: get('/api/events'),
  },
  admin: {
    getTeams: get('/api/admin/get_teams'),
    getUsers: get('/api/admin/get_users'),
    fetchAdmins: get('/api/admin/fetch_admins'),
    forceUpdate: acting('/api/admin/ctf/force_update'),
    removeTeam: post('/api/admin/remove_team'),
    removeUser: post('/api/admin/remove_user'),
    removeAdmin: post('/api/admin/remove_admin'),
    promoteAdmin: post('/api/admin/promote_admin'),
    /** Issue 31: a user's staff role (contract api/staff-roles.ts). */
    setRole: post('/api/admin/set_role'),
    /** Whether a monitor or author counts in public like a participant (staff do not by default). */
    setCompeting: post('/api/admin/set_competing'),
    getUploads: get('/api/admin/ctf/get_uploads'),
    fetchChallenges: get('/api/admin/ctf/fetch_challenges'),
    updateChallenge: post('/api/admin/ctf/update_challenge'),
    createChallenge: post('/api/admin/ctf/create_challenge'),
    toggleStatus: post('/api/admin/ctf/toggle_status'),
    deleteChallenge: post('/api/admin/ctf/delete_challenge'),
    scheduleRelease: post('/api/admin/ctf/schedule_release'),
    upload: post('/api/admin/ctf/upload'),
    deleteFile: post('/api/admin/ctf/delete_file'),
    getSolvers: get('/api/admin/ctf/get_solvers'),
    revealTeamFlag: post('/api/admin/ctf/reveal_team_flag'),
    /** Authenticated by ADMIN_API_TOKEN (an author's service), not by a session. */
    serviceTeamFlag: get('/api/admin/ctf/team-flag'),
    getSiteInfo: get('/api/admin/get_site_info'),
    updateSiteInfo: post('/api/admin/update_site_info'),
    freezeScoreboard: post('/api/admin/scoreboard/freeze'),
    exportScoreboardCsv: acting('/api/admin/export/scoreboard.csv'),
    exportSolvesCsv: acting('/api/admin/export/solves.csv'),
    exportScoreboardJson: acting('/api/admin/export/scoreboard.json'),
    exportSolvesJson: acting('/api/admin/export/solves.json'),
    importChallenges: post('/api/admin/ctf/import'),
    exportChallenges: acting('/api/admin/ctf/export'),
    /** The event's static archive (issue 32): a ZIP with index.html at its root. */
    eventArchive: acting('/api/admin/archive.zip'),
    getSetup: get('/api/admin/setup'),
    addSampleChallenges: post('/api/admin/sample_challenges'),
  },
  settings: {
    getSettings: get('/api/admin/settings'),
    updateSettings: post('/api/admin/settings'),
    uploadLogo: post('/api/admin/settings/logo'),
    getDivisions: get('/api/admin/divisions'),
    setDivisions: post('/api/admin/divisions'),
  },
  integrity: {
    getAudit: get('/api/admin/audit'),
    moderate: post('/api/admin/moderate'),
    getSubmissions: get('/api/admin/submissions'),
    getSubmissionsCsv: acting('/api/admin/submissions.csv'),
    getSignals: get('/api/admin/signals'),
  },
  announcements: {
    listAnnouncements: get('/api/info/announcements'),
    createAnnouncement: post('/api/admin/announcements/create'),
    updateAnnouncement: post('/api/admin/announcements/update'),
    deleteAnnouncement: post('/api/admin/announcements/delete'),
    adminAnnouncements: get('/api/admin/announcements'),
  },
  webhook: {
    webhookStatus: get('/api/admin/webhook/status'),
  },
  awards: {
    giveAward: post('/api/admin/awards'),
    listAwards: get('/api/admin/awards'),
    deleteAward: post('/api/admin/awards/delete'),
  },
  instances: {
    startInstance: post('/api/ctf/instance/start'),
    getInstance: get('/api/ctf/instance'),
    renewInstance: post('/api/ctf/instance/renew'),
    stopInstance: post('/api/ctf/instance/stop'),
    adminInstances: get('/api/admin/instances'),
    adminStopInstance: post('/api/admin/instances/stop'),
    instancePolicy: get('/api/admin/instances/policy'),
    instanceEngine: get('/api/admin/instances/engine'),
  },
  /** Writeups (issue 32): a competitor hands one in per solved challenge; admins review and publish. */
  writeups: {
    submitWriteup: post('/api/ctf/writeup'),
    myWriteups: get('/api/user/writeups'),
    writeupFile: acting('/api/ctf/writeup/file'),
    publishedWriteups: get('/api/info/writeups'),
    adminWriteups: get('/api/admin/writeups'),
    reviewWriteup: post('/api/admin/writeups/review'),
    writeupsZip: acting('/api/admin/writeups.zip'),
  },
  /** Accounts: who may register, e-mail and password sign-in, linked ways in. */
  accounts: {
    registrationCode: post('/api/auth/registration-code'),
    register: post('/api/auth/register'),
    emailLogin: post('/api/auth/login'),
    forgotPassword: post('/api/auth/password/forgot'),
    resetPassword: post('/api/auth/password/reset'),
    identities: get('/api/user/identities'),
    addEmailIdentity: post('/api/user/identities/email'),
    unlinkIdentity: post('/api/user/identities/unlink'),
    adminSignIns: get('/api/admin/sign-ins'),
    resendConfirmation: post('/api/admin/users/resend-confirmation'),
    blockedEmails: get('/api/admin/blocked-emails'),
    blockEmail: post('/api/admin/blocked-emails'),
  },
} as const;

/** The uploaded logo's URL (site info's logoUrl adds ?v=<hash> so browsers may keep it). */
export const LOGO_PATH = '/api/info/logo';

/** A challenge file's download URL is this prefix and the file's name. */
export const DOWNLOAD_PATH_PREFIX = '/api/ctf/download/';
