import { integrityApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { route } from '../../plugins/route.js';
import { requireStaff } from '../../plugins/session.js';
import { listSignals } from './signals.js';
import {
  exportSubmissionsCsv,
  flushSubmissionLog,
  listSubmissions,
  schedulePruning,
} from './submission-log.service.js';

/** The submission log: staff (the authorisation table); read through the site, never edited there. */
export function registerSubmissionLogRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, integrityApi.getSubmissions, 'admin', async (request) =>
    listSubmissions(ctx, request.query, requireStaff(request)),
  );
  route(app, integrityApi.getSubmissionsCsv, 'admin', async (request, reply) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', 'attachment; filename="submissions.csv"')
      .header('Cache-Control', 'no-store')
      .send(exportSubmissionsCsv(ctx, request.query, requireStaff(request))),
  );

  route(app, integrityApi.getSignals, 'admin', async () => listSignals(ctx));

  let stopPruning = () => {};
  app.addHook('onReady', async () => {
    stopPruning = schedulePruning(ctx);
  });
  // A graceful close writes the attempts still waiting in memory.
  app.addHook('onClose', async () => {
    stopPruning();
    await flushSubmissionLog(ctx);
  });
}
