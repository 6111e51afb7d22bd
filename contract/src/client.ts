/**
 * The web's entry of the contract (web/vite.config.ts and web/tsconfig.json map '@ctf/contract'
 * here; the server and the tests use index.ts). The browser only sends requests: it needs each
 * endpoint's method and path, the rules and the texts, and the shapes as types. So this entry has
 * no runtime zod: the schemas would be the first page's largest piece of JavaScript after React.
 * The server validates every body and answer with the full contract.
 */
import type { z } from 'zod';
import type { Endpoint } from './api/common.js';
import type * as admin from './api/admin.js';
import type * as auth from './api/auth.js';
import type * as challenges from './api/challenges.js';
import type * as integrity from './api/integrity.js';
import type * as announcements from './api/announcements.js';
import type * as webhook from './api/webhook.js';
import type * as awards from './api/awards.js';
import type * as instances from './api/instances.js';
import type * as writeups from './api/writeups.js';
import type * as accounts from './api/accounts.js';
import type * as leaderboard from './api/leaderboard.js';
import type * as settings from './api/settings.js';
import type * as site from './api/site.js';
import type * as teams from './api/teams.js';
import type * as users from './api/users.js';
import type * as tokens from './api/tokens.js';
import type * as divisions from './api/divisions.js';
import { DOWNLOAD_PATH_PREFIX, LOGO_PATH, ROUTES, type Route } from './api/routes.js';
import { confirmDeleteText, importRefusedText, looksLikeZip, uploadSummaryText } from './api/admin-rules.js';
import { AUDIT_ACTIONS, EVIDENCE_IDS_MAX, SUBMISSION_RESULTS } from './api/integrity-rules.js';

/**
 * An endpoint as the web calls it: the method and path it sends. `types` never exists at run time:
 * it carries the request body and the answer, as the full contract's schemas type them.
 */
export interface ClientEndpoint<
  M extends 'GET' | 'POST' = 'GET' | 'POST',
  Body = unknown,
  Res = unknown,
> extends Route<M> {
  readonly types?: { body: Body; response: Res };
}

type ClientOf<E> =
  E extends Endpoint<infer M, infer B, infer R>
    ? ClientEndpoint<M, B extends z.ZodType ? z.input<B> : undefined, z.output<R>>
    : never;
/** An area's endpoints, keyed as in api/<area>.ts; ROUTES must list each of them to type-check. */
type ClientApi<Area> = {
  readonly [K in keyof Area as Area[K] extends Endpoint ? K : never]: ClientOf<Area[K]>;
};

export const authApi: ClientApi<typeof auth> = ROUTES.auth;
export const siteApi: ClientApi<typeof site> = ROUTES.site;
export const usersApi: ClientApi<typeof users> = ROUTES.users;
/** Personal API tokens (issue 31). */
export const tokensApi: ClientApi<typeof tokens> = ROUTES.tokens;
export const teamsApi: ClientApi<typeof teams> = ROUTES.teams;
export const challengesApi: ClientApi<typeof challenges> & { DOWNLOAD_PATH_PREFIX: string } = {
  ...ROUTES.challenges,
  DOWNLOAD_PATH_PREFIX,
};
export const leaderboardApi: ClientApi<typeof leaderboard> = ROUTES.leaderboard;
export const adminApi: ClientApi<typeof admin> &
  Pick<typeof admin, 'confirmDeleteText' | 'importRefusedText' | 'looksLikeZip' | 'uploadSummaryText'> = {
  ...ROUTES.admin,
  confirmDeleteText,
  importRefusedText,
  looksLikeZip,
  uploadSummaryText,
};

export const settingsApi: ClientApi<typeof settings> & { LOGO_PATH: string } = {
  ...ROUTES.settings,
  LOGO_PATH,
};
export const integrityApi: ClientApi<typeof integrity> &
  Pick<typeof integrity, 'AUDIT_ACTIONS' | 'EVIDENCE_IDS_MAX' | 'SUBMISSION_RESULTS'> = {
  ...ROUTES.integrity,
  AUDIT_ACTIONS,
  EVIDENCE_IDS_MAX,
  SUBMISSION_RESULTS,
};
/** Divisions (issue 19): the admin's list lives beside the settings, the pick beside the user. */
export const divisionsApi: ClientApi<typeof divisions> = {
  getDivisions: ROUTES.settings.getDivisions,
  setDivisions: ROUTES.settings.setDivisions,
  pickDivision: ROUTES.users.pickDivision,
};
export const announcementsApi: ClientApi<typeof announcements> = ROUTES.announcements;
export const webhookApi: ClientApi<typeof webhook> = ROUTES.webhook;
export const awardsApi: ClientApi<typeof awards> = ROUTES.awards;
/** Per-team challenge instances (issue 30). */
export const instancesApi: ClientApi<typeof instances> = ROUTES.instances;
/** Writeups (issue 32). */
export const writeupsApi: ClientApi<typeof writeups> = ROUTES.writeups;
/** Accounts: registration, e-mail sign-in, linked ways in. */
export const accountsApi: ClientApi<typeof accounts> = ROUTES.accounts;
export type { AckResponse, MessageResponse } from './api/common.js';
export * from './shared.js';
