/**
 * Staff roles (issue 31) and THE authorisation table of the admin API: which roles may call each
 * admin route. The server's route guard reads it for every route registered as 'admin' (a route
 * missing here is refused at start-up), and the web's admin panel reads it to show a role only the
 * tabs and buttons it may use. An admin may call every admin route; the table names who else may.
 * Zod-free: the web imports it through client.ts. docs/decisions/0011-staff-roles.md.
 */
import { ROUTES, type Route } from './routes.js';

export const ROLES = ['player', 'monitor', 'author', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** The roles that may open the admin panel at all. */
export type StaffRole = Exclude<Role, 'player'>;
export const STAFF_ROLES: readonly StaffRole[] = ['monitor', 'author', 'admin'];

export function isStaff(role: Role | undefined | null): role is StaffRole {
  return role === 'monitor' || role === 'author' || role === 'admin';
}

/**
 * A monitor reads what an admin reads about play (users and teams without e-mail addresses,
 * solvers, the submission log, signals, the audit log, instances, exports) and changes nothing.
 * An author works on challenges (with their files, hints, schedule, import and export) and reads
 * the submission log; nothing about users, teams, the site switch, settings, moderation or audit.
 */
const MONITOR = ['monitor'] as const;
const AUTHOR = ['author'] as const;
const BOTH = ['monitor', 'author'] as const;
const ADMIN_ONLY = [] as const;

const A = ROUTES.admin;
const S = ROUTES.settings;
const I = ROUTES.integrity;

/** Route -> the roles besides admin that may call it. Every admin route is listed, once. */
const TABLE: ReadonlyArray<readonly [Route, readonly Exclude<StaffRole, 'admin'>[]]> = [
  // The admin panel's own check: who may open it at all.
  [ROUTES.auth.adminAuthenticated, BOTH],
  // People
  [A.getUsers, MONITOR],
  [A.getTeams, MONITOR],
  [A.fetchAdmins, MONITOR],
  [A.removeUser, ADMIN_ONLY],
  [A.removeTeam, ADMIN_ONLY],
  [A.removeAdmin, ADMIN_ONLY],
  [A.promoteAdmin, ADMIN_ONLY],
  [A.setRole, ADMIN_ONLY],
  [A.setCompeting, ADMIN_ONLY],
  [I.moderate, ADMIN_ONLY],
  // Ways in: a monitor sees which (never the addresses); an admin resends and blocks.
  [ROUTES.accounts.adminSignIns, MONITOR],
  [ROUTES.accounts.resendConfirmation, ADMIN_ONLY],
  [ROUTES.accounts.blockedEmails, ADMIN_ONLY],
  [ROUTES.accounts.blockEmail, ADMIN_ONLY],
  // Challenges
  [A.fetchChallenges, AUTHOR],
  [A.createChallenge, AUTHOR],
  [A.updateChallenge, AUTHOR],
  [A.toggleStatus, AUTHOR],
  [A.deleteChallenge, AUTHOR],
  [A.scheduleRelease, AUTHOR],
  [A.getUploads, AUTHOR],
  [A.upload, AUTHOR],
  [A.deleteFile, AUTHOR],
  [A.importChallenges, AUTHOR],
  [A.exportChallenges, AUTHOR],
  [A.addSampleChallenges, AUTHOR],
  // A competitor's own flag: admins only (a monitor never sees a flag, an author no team's).
  [A.revealTeamFlag, ADMIN_ONLY],
  [A.getSolvers, MONITOR],
  // Event
  [A.getSiteInfo, MONITOR],
  [A.updateSiteInfo, ADMIN_ONLY],
  [A.forceUpdate, ADMIN_ONLY],
  [A.freezeScoreboard, ADMIN_ONLY],
  [A.getSetup, ADMIN_ONLY],
  [S.getSettings, ADMIN_ONLY],
  [S.updateSettings, ADMIN_ONLY],
  [S.uploadLogo, ADMIN_ONLY],
  [S.getDivisions, MONITOR],
  [S.setDivisions, ADMIN_ONLY],
  [ROUTES.announcements.adminAnnouncements, MONITOR],
  [ROUTES.announcements.createAnnouncement, ADMIN_ONLY],
  [ROUTES.announcements.updateAnnouncement, ADMIN_ONLY],
  [ROUTES.announcements.deleteAnnouncement, ADMIN_ONLY],
  [ROUTES.webhook.webhookStatus, ADMIN_ONLY],
  // Integrity
  [I.getAudit, MONITOR],
  [I.getSubmissions, BOTH],
  [I.getSubmissionsCsv, BOTH],
  [I.getSignals, MONITOR],
  [ROUTES.instances.adminInstances, MONITOR],
  [ROUTES.instances.adminStopInstance, ADMIN_ONLY],
  // The operator's box (authors see what a challenge may ask) and whether the engine answers.
  [ROUTES.instances.instancePolicy, BOTH],
  [ROUTES.instances.instanceEngine, BOTH],
  // Awards (bonus points and penalties): a monitor reads them, an admin gives and deletes them.
  [ROUTES.awards.listAwards, MONITOR],
  [ROUTES.awards.giveAward, ADMIN_ONLY],
  [ROUTES.awards.deleteAward, ADMIN_ONLY],
  // Writeups (issue 32): a monitor reads them (list, ZIP, and so each file); an admin reviews and publishes.
  [ROUTES.writeups.adminWriteups, MONITOR],
  [ROUTES.writeups.writeupsZip, MONITOR],
  [ROUTES.writeups.reviewWriteup, ADMIN_ONLY],
  // After the event
  [A.exportScoreboardCsv, MONITOR],
  [A.exportSolvesCsv, MONITOR],
  [A.exportScoreboardJson, MONITOR],
  [A.exportSolvesJson, MONITOR],
  [A.eventArchive, MONITOR],
];

const key = (route: Pick<Route, 'method' | 'path'>) => `${route.method} ${route.path}`;

const BY_ROUTE = new Map<string, readonly StaffRole[]>();
for (const [route, others] of TABLE) {
  if (BY_ROUTE.has(key(route))) throw new Error(`staff-roles: ${key(route)} is listed twice`);
  BY_ROUTE.set(key(route), ['admin', ...others]);
}

/** The roles that may call an admin route; undefined for a route the table lacks (refused). */
export function rolesFor(route: Pick<Route, 'method' | 'path'>): readonly StaffRole[] | undefined {
  return BY_ROUTE.get(key(route));
}

/** Whether a role may call this admin route (false for a route the table lacks). */
export function mayCall(role: Role | undefined | null, route: Pick<Route, 'method' | 'path'>): boolean {
  return role != null && (rolesFor(route)?.includes(role as StaffRole) ?? false);
}

/** Every route the table lists (the route-walking test checks it against what is registered). */
export function staffTableRoutes(): Array<Pick<Route, 'method' | 'path'>> {
  return TABLE.map(([route]) => route);
}

/**
 * What the answers of the admin API hide from a role that is not admin: e-mail addresses, and
 * every flag (a challenge's own flags stay readable to the authors who write them; no team's own
 * flag, and no submitted text, which may be one, reaches anyone but an admin).
 */
export function seesEmails(role: Role): boolean {
  return role === 'admin';
}
export function seesSubmittedText(role: Role): boolean {
  return role === 'admin';
}
