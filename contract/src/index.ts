export * from './api/common.js';
export * as authApi from './api/auth.js';
export * as siteApi from './api/site.js';
export * as usersApi from './api/users.js';
export * as tokensApi from './api/tokens.js';
export * as teamsApi from './api/teams.js';
export * as challengesApi from './api/challenges.js';
export * as leaderboardApi from './api/leaderboard.js';
export * as adminApi from './api/admin.js';
export * as settingsApi from './api/settings.js';
export * as divisionsApi from './api/divisions.js';
export * as integrityApi from './api/integrity.js';
export * as announcementsApi from './api/announcements.js';
export * as webhookApi from './api/webhook.js';
export * as awardsApi from './api/awards.js';
export * as instancesApi from './api/instances.js';
export * as writeupsApi from './api/writeups.js';
export * as accountsApi from './api/accounts.js';
export { flagsOf } from './api/admin.js';
export { ROUTES, type Route } from './api/routes.js';
export {
  API_DOCS_PATH,
  METRICS_PATH,
  OPENAPI_PATH,
  apiReference,
  type Access,
  type RawRoute,
  type ReferenceEntry,
} from './api/reference.js';
export * from './shared.js';
