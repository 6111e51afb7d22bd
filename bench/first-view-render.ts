/**
 * What a server-rendered first view costs the server, page by page (docs/decisions/0019): an event
 * of 300 competitors and 30 challenges on SQLite, 200 signed-in players. For Compete, which is
 * drawn per player from their own record, the first load of each of 180 players (their record
 * and completions built, the page rendered) and a load again unchanged (the kept page); the
 * renderer alone on one seed for every page.
 *
 * Usage: npm run build, then npx tsx bench/first-view-render.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { getPublicChallengeList } from '../server/src/modules/challenges/challenges.service.js';
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
    const pageSeed = { ...seed, path: page, leaderboard: { rows: [], total: 0 } };
    for (let i = 0; i < 20; i++) renderer.renderFirstView(page, pageSeed);
    started = performance.now();
    for (let i = 0; i < 100; i++) renderer.renderFirstView(page, pageSeed);
    console.log(`${page}: the renderer alone ${((performance.now() - started) / 100).toFixed(2)} ms`);
  }
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
