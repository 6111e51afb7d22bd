/**
 * What a server-rendered first view costs the server, page by page (docs/decisions/0019): an event
 * of 300 competitors and 30 challenges on SQLite, 200 signed-in players. For Compete, which is
 * drawn per player from their own record, the first load of each of 180 players (their record
 * and completions built, the page rendered) and a load again unchanged (the kept page); the same
 * for a challenge's page, drawn per player from their own answer for it (built at every load, as
 * the API builds it), beside that answer's own cost (the service the API route calls); the
 * renderer alone on one seed for every page. The event is running (a challenge's page is drawn
 * only while no writeup panel can show).
 *
 * Usage: npm run build, then npx tsx bench/first-view-render.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import {
  getChallengeDetail,
  getPublicChallengeList,
} from '../server/src/modules/challenges/challenges.service.js';
import {
  firstViewPages,
  loadFirstViewRenderer,
} from '../server/src/modules/first-view/first-view.service.js';
import { getSiteInfo } from '../server/src/modules/site/site.service.js';
import { seedEvent } from './seed.js';

const web = path.join(import.meta.dirname, '..', 'web', 'dist');
const dataDir = mkdtempSync(path.join(tmpdir(), 'ctf-bench-render-'));
const env = {
  DATA_DIR: dataDir,
  SESSION_SECRET: 'bench-first-view-render-secret-0123456789',
  LOG_LEVEL: 'silent',
  EVENT_START: new Date(Date.now() - 86_400_000).toISOString(),
  EVENT_END: new Date(Date.now() + 7 * 86_400_000).toISOString(),
};
const { app, ctx } = await buildApp(loadConfig(env), { logger: false });
try {
  const event = await seedEvent(ctx, {
    users: 300,
    teams: 75,
    challenges: 30,
    solves: 3000,
    files: 0,
    sessions: 200,
  });
  const renderer = await loadFirstViewRenderer(web);
  const firstView = firstViewPages(ctx, renderer);
  const template = readFileSync(path.join(web, 'pages', 'compete.html'), 'utf8');
  const players = event.sessions.map(
    (s) => ({ headers: {}, cookies: { ctf_session: s.token } }) as unknown as FastifyRequest,
  );
  for (let i = 0; i < 20; i++) await firstView(players[i]!, '/compete', template);
  let started = performance.now();
  for (let i = 20; i < 200; i++) await firstView(players[i]!, '/compete', template);
  const first = (performance.now() - started) / 180;
  started = performance.now();
  for (let i = 0; i < 1000; i++) await firstView(players[199 - (i % 10)]!, '/compete', template);
  const again = (performance.now() - started) / 1000;
  console.log(
    `/compete: first load of a player ${first.toFixed(2)} ms, again unchanged ${again.toFixed(3)} ms`,
  );

  const challengeTemplate = readFileSync(path.join(web, 'pages', 'challenge.html'), 'utf8');
  const challengeId = event.challengeIds[0]!;
  const onChallengePage = (i: number) =>
    ({ ...players[i]!, url: `/challenge?id=${challengeId}` }) as unknown as FastifyRequest;
  for (let i = 0; i < 20; i++) await firstView(onChallengePage(i), '/challenge', challengeTemplate);
  started = performance.now();
  for (let i = 20; i < 200; i++) await firstView(onChallengePage(i), '/challenge', challengeTemplate);
  const firstChallenge = (performance.now() - started) / 180;
  started = performance.now();
  for (let i = 0; i < 1000; i++)
    await firstView(onChallengePage(199 - (i % 10)), '/challenge', challengeTemplate);
  const againChallenge = (performance.now() - started) / 1000;
  const callers = await Promise.all(
    event.sessions
      .slice(190, 200)
      .map((s) =>
        ctx.database.db.selectFrom('users').selectAll().where('id', '=', s.userId).executeTakeFirstOrThrow(),
      ),
  );
  started = performance.now();
  for (let i = 0; i < 1000; i++) await getChallengeDetail(ctx, callers[i % 10]!, challengeId);
  const answer = (performance.now() - started) / 1000;
  console.log(
    `/challenge: first load of a player ${firstChallenge.toFixed(2)} ms, again unchanged ${againChallenge.toFixed(3)} ms (its answer alone ${answer.toFixed(3)} ms)`,
  );

  const seed = {
    siteInfo: JSON.parse((await getSiteInfo(ctx)).json) as unknown,
    announcements: [],
    authenticated: true,
    challenges: JSON.parse((await getPublicChallengeList(ctx)).answer.json) as unknown,
    // A player on no team (Compete then waits for no team completions).
    user: {
      ...(JSON.parse(
        String(
          (await app.inject({ url: '/api/user/info', cookies: { ctf_session: event.sessions[0]!.token } }))
            .body,
        ),
      ) as object),
      team_id: null,
    },
  };
  for (const page of renderer.FIRST_VIEW_PAGES) {
    const pageSeed = {
      ...seed,
      path: page,
      leaderboard: { rows: [], total: 0 },
      challenge: { id: String(challengeId), detail: await getChallengeDetail(ctx, callers[0]!, challengeId) },
    };
    const url = page === '/challenge' ? `${page}?id=${challengeId}` : page;
    for (let i = 0; i < 20; i++) renderer.renderFirstView(url, pageSeed);
    started = performance.now();
    for (let i = 0; i < 100; i++) renderer.renderFirstView(url, pageSeed);
    console.log(`${page}: the renderer alone ${((performance.now() - started) / 100).toFixed(2)} ms`);
  }
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
