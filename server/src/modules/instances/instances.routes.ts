import { instancesApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { route } from '../../plugins/route.js';
import { requireStaff } from '../../plugins/session.js';
import {
  adminStopInstance,
  getInstance,
  listInstancesAdmin,
  renewInstance,
  startInstance,
  stopInstance,
} from './instances.service.js';
import { InstanceJanitor } from './janitor.js';
import { closeRuntime, engineStatus } from './runtime.js';
import { settleInstancesOnTeamChanges } from './team-changes.js';

/** Per-team challenge instances (issue 30): the players' calls, the admin's, and the janitor. */
export function registerInstanceRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, instancesApi.startInstance, 'user', async (request) =>
    startInstance(ctx, request.user!, request.body.challenge_id),
  );
  route(app, instancesApi.getInstance, 'user', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return getInstance(ctx, request.user!, request.query.challenge_id);
  });
  route(app, instancesApi.renewInstance, 'user', async (request) =>
    renewInstance(ctx, request.user!, request.body.challenge_id),
  );
  route(app, instancesApi.stopInstance, 'user', async (request) =>
    stopInstance(ctx, request.user!, request.body.challenge_id),
  );
  route(app, instancesApi.adminInstances, 'admin', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return listInstancesAdmin(ctx, requireStaff(request).role === 'admin');
  });
  route(app, instancesApi.instancePolicy, 'admin', async () => ctx.config.instances.policy);
  route(app, instancesApi.instanceEngine, 'admin', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return engineStatus(ctx);
  });
  route(app, instancesApi.adminStopInstance, 'admin', async (request) =>
    adminStopInstance(ctx, requireStaff(request), request.body.instance_id),
  );

  settleInstancesOnTeamChanges(ctx);
  const janitor = new InstanceJanitor(ctx);
  app.addHook('onReady', async () => janitor.start());
  app.addHook('preClose', async () => {
    await janitor.stop();
    await closeRuntime(ctx);
  });
}
