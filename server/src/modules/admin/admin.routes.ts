import { adminApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { route } from '../../plugins/route.js';
import { requireStaff } from '../../plugins/session.js';
import {
  deleteChallenge,
  scheduleRelease,
  listChallengesForAdmin,
  listSolversByChallenge,
  toggleChallengeStatus,
} from '../challenges/challenges.service.js';
import { isSiteActive } from '../event-state/event-state.service.js';
import { setSiteActive } from '../site/site.service.js';
import { listTeamsWithModeration, listUsersForAdmin } from '../moderation/moderation.service.js';
import { deleteTeam } from '../teams/teams.service.js';
import { listUsersOfRole } from '../users/users.service.js';
import {
  createChallengeOutsideEvent,
  forceUpdate,
  getSetupStatus,
  removeAdminRole,
  promoteToAdmin,
  removeUser,
  saveChallenge,
  setRole,
} from './admin.service.js';

/**
 * docs/product.md §7 Admin calls. Each is guarded as 'admin' (a visitor gets 401, a participant 403 before
 * anything runs) and answers {acknowledge, message} unless docs/product.md names another shape. The file
 * calls (upload, get_uploads, delete_file) live in the files module.
 */
export function registerAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  // A monitor reads the lists without e-mail addresses (the presenter leaves them out).
  route(app, adminApi.getUsers, 'admin', async (request) =>
    listUsersForAdmin(ctx, requireStaff(request).role),
  );
  route(app, adminApi.getSetup, 'admin', async () => getSetupStatus(ctx));
  route(app, adminApi.fetchAdmins, 'admin', async (request) =>
    listUsersOfRole(ctx, 'admins', requireStaff(request).role),
  );
  route(app, adminApi.getTeams, 'admin', async () => listTeamsWithModeration(ctx));

  route(app, adminApi.removeUser, 'admin', async (request) =>
    removeUser(ctx, requireStaff(request), request.body.user_id),
  );
  route(app, adminApi.promoteAdmin, 'admin', async (request) =>
    promoteToAdmin(ctx, requireStaff(request), request.body.username),
  );
  route(app, adminApi.setRole, 'admin', async (request) =>
    setRole(ctx, requireStaff(request), request.body.user_id, request.body.role),
  );
  route(app, adminApi.removeAdmin, 'admin', async (request) =>
    removeAdminRole(ctx, requireStaff(request), request.body.username),
  );
  route(app, adminApi.removeTeam, 'admin', async (request) => {
    await deleteTeam(ctx, request.body.team_id, requireStaff(request));
    return { acknowledge: true, message: 'Team removed successfully.' };
  });

  route(app, adminApi.fetchChallenges, 'admin', async (request) =>
    listChallengesForAdmin(ctx, requireStaff(request)),
  );
  route(app, adminApi.createChallenge, 'admin', async (request) =>
    createChallengeOutsideEvent(ctx, requireStaff(request), request.body),
  );
  route(app, adminApi.updateChallenge, 'admin', async (request) => {
    const { challenge_id, ...input } = request.body;
    return saveChallenge(ctx, requireStaff(request), challenge_id, input);
  });
  route(app, adminApi.toggleStatus, 'admin', async (request) => {
    const { is_active } = await toggleChallengeStatus(ctx, request.body.challenge_id, requireStaff(request));
    return { acknowledge: true, message: is_active ? 'Challenge enabled.' : 'Challenge disabled.' };
  });
  route(app, adminApi.deleteChallenge, 'admin', async (request) => {
    await deleteChallenge(ctx, request.body.challenge_id, requireStaff(request));
    return { acknowledge: true, message: 'Challenge deleted successfully.' };
  });
  route(app, adminApi.scheduleRelease, 'admin', async (request) => {
    const { challenge_ids, release_at } = request.body;
    const count = await scheduleRelease(
      ctx,
      { ids: challenge_ids, releaseAt: release_at },
      requireStaff(request),
    );
    return {
      acknowledge: true,
      message:
        release_at === null
          ? `${count} challenge(s) released now.`
          : `${count} challenge(s) scheduled for ${new Date(release_at).toISOString()}.`,
    };
  });
  route(app, adminApi.getSolvers, 'admin', async () => ({
    acknowledge: true,
    ...(await listSolversByChallenge(ctx)),
  }));

  route(app, adminApi.getSiteInfo, 'admin', async () => ({ activated: await isSiteActive(ctx) }));
  route(app, adminApi.updateSiteInfo, 'admin', async (request) => {
    await setSiteActive(ctx, request.body.activated, requireStaff(request));
    return {
      acknowledge: true,
      message: request.body.activated ? 'The site is now active.' : 'The site is now inactive.',
    };
  });
  route(app, adminApi.forceUpdate, 'admin', async (request) => forceUpdate(ctx, requireStaff(request)));
}
