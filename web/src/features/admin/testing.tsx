import { DEFAULT_INSTANCE_POLICY, type AdminChallenge, type SetupStatus, type User } from '@ctf/contract';
import { queryKeys } from '../../lib/query';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, vi } from 'vitest';
import { json, type Handler } from '../../test/api-mock';
import { SITE, makeAdminChallenge as makeChallengeWithFlag, makeUser } from '../../test/factories';
import { renderAt } from '../../test/render';

/** Test helpers for the admin panel: the shared fake server and factories, and the panel's answers. */
export { json, mockApi, type Handler } from '../../test/api-mock';
export { SITE, makeUser } from '../../test/factories';

/** The signed-in admin the panel is rendered for (its role decides the tabs: staff-role.ts). */
export const ADMIN_ME = makeUser({ _id: '1', username: 'boss', is_admin: true, role: 'admin' });

/** The admin panel at `route`, signed in as `me` (an admin unless a test gives another role). */
export function renderPage(ui: ReactElement, route = '/admin/panel', me: User = ADMIN_ME) {
  return renderAt(ui, route, (client) => client.setQueryData(queryKeys.userInfo, me));
}

export function makeAdminChallenge(n: number, overrides: Partial<AdminChallenge> = {}): AdminChallenge {
  return makeChallengeWithFlag(n, {
    description: `<p>Description ${n}</p>`,
    written_by: 'Author',
    ...overrides,
  });
}

/** The set-up facts of a site that has challenges (no checklist); a test of the checklist says 0. */
export const SETUP: SetupStatus = {
  challenges: 2,
  publicUrl: 'http://localhost:3000',
  login: { discord: false, github: true, local: false },
  redirectUrls: {
    discord: 'http://localhost:3000/api/auth/discord/callback',
    github: 'http://localhost:3000/api/auth/github/callback',
  },
  webhook: false,
};

/** The answers the panel needs to render every tab; a test overrides the calls it is about. */
export function baseRoutes(overrides: Record<string, Handler> = {}): Record<string, Handler> {
  return {
    // The signed-in admin: the panel shows the tabs and buttons of the role (staff-role.ts).
    'GET /api/user/info': () => json(ADMIN_ME),
    'GET /api/admin/get_site_info': () => json({ activated: false }),
    'GET /api/admin/get_users': () =>
      json([makeUser({ _id: '2', username: 'alice' }), makeUser({ _id: '3', username: 'bob', team: 'Red' })]),
    'GET /api/admin/fetch_admins': () => json([makeUser({ _id: '1', username: 'boss', is_admin: true })]),
    'GET /api/admin/sign-ins': () =>
      json([
        { user_id: '2', ways: ['github'], emailVerified: null },
        { user_id: '3', ways: ['email'], emailVerified: false },
      ]),
    'GET /api/admin/blocked-emails': () => json([]),
    'GET /api/admin/get_teams': () =>
      json([
        {
          _id: '7',
          name: 'Red',
          team_leader: 'bob',
          members: ['bob'],
          join_requests: [],
          completions: [],
          memberCount: 1,
          spotsLeft: 3,
        },
      ]),
    'GET /api/admin/ctf/fetch_challenges': () =>
      json([makeAdminChallenge(1, { hlinks: ['a.zip'] }), makeAdminChallenge(2, { is_active: false })]),
    'GET /api/admin/ctf/get_uploads': () => json(['a.zip', 'b.zip']),
    'GET /api/admin/ctf/get_solvers': () =>
      json({
        acknowledge: true,
        solvers: { 'Challenge 1': ['alice', 'bob'], 'Challenge 2': [] },
        first_bloods: { 'Challenge 1': 'alice' },
      }),
    'GET /api/info/site': () => json(SITE),
    'GET /api/admin/divisions': () => json({ divisions: [] }),
    'GET /api/admin/setup': () => json(SETUP),
    'GET /api/admin/instances/policy': () => json(DEFAULT_INSTANCE_POLICY),
    'GET /api/admin/instances/engine': () => json({ reachable: true, message: null }),
    ...overrides,
  };
}

/**
 * Stubs window.confirm (accepting) and window.alert for each test of the file that calls it, and
 * silences the console errors that failed calls log on purpose.
 */
export function useDialogSpies() {
  const spies = {
    confirm: undefined as unknown as ReturnType<typeof vi.spyOn>,
    alert: undefined as unknown as ReturnType<typeof vi.spyOn>,
  };
  beforeEach(() => {
    spies.confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    spies.alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });
  return spies;
}
