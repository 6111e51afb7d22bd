import { Readable } from 'node:stream';
import { adminApi, leaderboardApi } from '@ctf/contract';
import { stringify } from 'csv-stringify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { sendCachedJson } from '../../plugins/cached-json.js';
import { route } from '../../plugins/route.js';
import { requireStaff, sessionUser } from '../../plugins/session.js';
import { activeFreeze } from '../event-state/event-state.service.js';
import { resolveDivisionFilter } from '../divisions/divisions.service.js';
import {
  exportScoreboard,
  exportSolves,
  getCtftimeFeed,
  getScoreGraph,
  setFreezeAt,
} from './scoreboard.service.js';

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR at the start) is prefixed with
 * a quote: names are chosen by players, and an export is opened by an admin (CSV injection).
 */
export function csvCell(value: string | number): string | number {
  return typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** Streams rows as CSV (csv-stringify) with a header line, as a download. */
function sendCsv<R extends Record<string, string | number>>(
  reply: FastifyReply,
  fileName: string,
  columns: readonly (keyof R & string)[],
  rows: readonly R[],
): FastifyReply {
  const csv = Readable.from(rows.map((r) => columns.map((c) => csvCell(r[c]!)))).pipe(
    stringify({ header: true, columns: [...columns] }),
  );
  void reply
    .type('text/csv; charset=utf-8')
    .header('cache-control', 'private, no-store')
    .header('content-disposition', `attachment; filename="${fileName}"`);
  return reply.send(csv);
}

/**
 * Whether the caller gets the live board: only an admin, and the question is asked only while a
 * freeze is in force (before it everyone gets the same live answer without a session read).
 */
export async function wantsLiveBoard(ctx: AppContext, request: FastifyRequest): Promise<boolean> {
  if ((await activeFreeze(ctx)) === null) return false;
  return (await sessionUser(ctx, request))?.is_admin === 1;
}

export function registerScoreboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  // ?division=NAME (issue 19): that division's standings; ignored while the site has none.
  const divisionOf = async (name: string | undefined) => (await resolveDivisionFilter(ctx, name))?.id;

  route(app, leaderboardApi.scoreGraph, 'anonymous', async (request, reply) => {
    const live = await wantsLiveBoard(ctx, request);
    const division = await divisionOf(request.query.division);
    return sendCachedJson(
      request,
      reply,
      await getScoreGraph(ctx, live, request.query.top, division),
      live ? 'private' : 'public',
    );
  });

  route(app, leaderboardApi.ctftime, 'anonymous', async (request, reply) =>
    sendCachedJson(request, reply, await getCtftimeFeed(ctx, await divisionOf(request.query.division))),
  );

  route(app, adminApi.freezeScoreboard, 'admin', async (request) => {
    const at = request.body.freeze_at === null ? null : new Date(request.body.freeze_at);
    const freezeAt = await setFreezeAt(ctx, at, requireStaff(request));
    return {
      acknowledge: true,
      message:
        freezeAt === null ? 'The scoreboard freeze is lifted.' : `The scoreboard freezes at ${freezeAt}.`,
      freeze_at: freezeAt,
    };
  });

  route(app, adminApi.exportScoreboardJson, 'admin', async (request) =>
    exportScoreboard(ctx, await divisionOf(request.query.division)),
  );
  route(app, adminApi.exportSolvesJson, 'admin', async (request) =>
    exportSolves(ctx, await divisionOf(request.query.division)),
  );
  route(app, adminApi.exportScoreboardCsv, 'admin', async (request, reply) =>
    sendCsv(
      reply,
      'scoreboard.csv',
      ['pos', 'kind', 'name', 'points', 'solves', 'last_solve_at'],
      await exportScoreboard(ctx, await divisionOf(request.query.division)),
    ),
  );
  route(app, adminApi.exportSolvesCsv, 'admin', async (request, reply) =>
    sendCsv(
      reply,
      'solves.csv',
      ['time', 'user', 'team', 'challenge', 'points'],
      await exportSolves(ctx, await divisionOf(request.query.division)),
    ),
  );
}
