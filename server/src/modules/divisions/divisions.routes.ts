import { DIVISION_MESSAGES, divisionsApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { route } from '../../plugins/route.js';
import { requireStaff, requireUser } from '../../plugins/session.js';
import { listDivisions, pickDivision, saveDivisions } from './divisions.service.js';

export function registerDivisionRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, divisionsApi.getDivisions, 'admin', async () => ({ divisions: await listDivisions(ctx) }));

  route(app, divisionsApi.setDivisions, 'admin', async (request) => ({
    acknowledge: true,
    message: DIVISION_MESSAGES.saved,
    divisions: await saveDivisions(ctx, request.body.divisions, requireStaff(request)),
  }));

  route(app, divisionsApi.pickDivision, 'user', async (request) => ({
    acknowledge: true,
    message: DIVISION_MESSAGES.picked,
    division: await pickDivision(ctx, requireUser(request), request.body.division),
  }));
}
