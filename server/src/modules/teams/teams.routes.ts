import { teamsApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { sendCachedJson } from '../../plugins/cached-json.js';
import { route } from '../../plugins/route.js';
import { requireUser } from '../../plugins/session.js';
import {
  acceptJoinRequest,
  createTeam,
  leaveTeam,
  removeMember,
  renameTeam,
  requestToJoin,
} from './teams.service.js';
import { getTeamInfoAnswer, listJoinableTeams } from './teams.views.js';

/** docs/product.md §7 team calls; every rule lives in the service. */
export function registerTeamRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, teamsApi.teamInfo, 'user', async (request, reply) =>
    sendCachedJson(request, reply, await getTeamInfoAnswer(ctx, requireUser(request)), 'private'),
  );

  route(app, teamsApi.teamList, 'user', async () => listJoinableTeams(ctx));

  route(app, teamsApi.createTeam, 'user', async (request) => ({
    message: await createTeam(ctx, requireUser(request), request.body.team_name),
  }));

  route(app, teamsApi.requestTeam, 'user', async (request) => ({
    message: await requestToJoin(ctx, requireUser(request), request.body.team_name),
  }));

  route(app, teamsApi.updateTeam, 'user', async (request) => ({
    message: await renameTeam(ctx, requireUser(request), request.body.team_name),
  }));

  route(app, teamsApi.replaceLeader, 'user', async (request) => ({
    message: await leaveTeam(ctx, requireUser(request), request.body.team_data.name),
  }));

  route(app, teamsApi.removeMember, 'user', async (request) => ({
    message: await removeMember(ctx, requireUser(request), request.body.member_username),
  }));

  route(app, teamsApi.addMember, 'user', async (request) => ({
    message: await acceptJoinRequest(ctx, requireUser(request), {
      requestId: request.body.request_id,
      checksum: request.body.checksum,
    }),
  }));
}
