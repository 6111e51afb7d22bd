import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_ENTRY, SERVER_ENV, SERVER_NODE_FLAGS } from '../e2e/support/server.js';
import { ARCHIVE_NODE_FLAGS, ARCHIVE_SCRIPT } from './archive.js';
import { formatReport } from './report.js';
import { SCENARIOS, runBench } from './run.js';
import { challengeMatcher } from '../server/src/modules/challenges/flags.js';
import { TINY_EVENT, regexFlagAnswer, regexFlagPatterns } from './seed.js';

/**
 * Not a benchmark: a quick run of the seed generator and every load scenario on a tiny event, so
 * `npm run bench` cannot rot unnoticed. No timing is asserted here.
 */
describe('benchmark harness', () => {
  it('measures the server as `npm start` runs it: the same entry, Node flags and environment', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: { start: string };
    };
    const command = [
      ...Object.entries(SERVER_ENV).map(([k, v]) => `${k}=${v}`),
      'node',
      ...SERVER_NODE_FLAGS,
      path.relative(root, SERVER_ENTRY),
    ].join(' ');
    expect(pkg.scripts.start).toBe(`npm run build && ${command}`);
  });

  it('measures the archive as `npm run archive` runs it: the same script and Node flags', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: { archive: string };
    };
    expect(
      pkg.scripts.archive.endsWith(` && node ${[...ARCHIVE_NODE_FLAGS, ARCHIVE_SCRIPT].join(' ')}`),
    ).toBe(true);
  });

  it("regex-submit's right answers are accepted by a pattern alone, its wrong ones by none", () => {
    for (const i of [2, 7, 97]) {
      const patterns = regexFlagPatterns(i);
      expect(patterns).toHaveLength(3);
      const matches = challengeMatcher(patterns.map((content) => ({ type: 'regex' as const, content })));
      const staticOnly = challengeMatcher([{ type: 'static', content: `flag{bench_${i}_abc}` }]);
      for (let k = 0; k < 50; k++) {
        const answer = regexFlagAnswer(i);
        expect(matches(answer), answer).toBe(true);
        expect(staticOnly(answer), answer).toBe(false);
      }
      expect(matches(`flag{wrong_123456}`)).toBe(false);
      expect(matches(regexFlagAnswer(i + 1))).toBe(false);
    }
  });

  it('seeds a tiny event and runs every scenario and leg end to end', async () => {
    const report = await runBench({
      databases: ['sqlite'],
      size: TINY_EVENT,
      doubleSize: null,
      durationSec: 1,
      connections: [4],
      scenarios: SCENARIOS,
      workers: false,
      streams: 20,
      dynamic: true,
      // The instances leg needs a real engine and 20 containers: instances.load.docker.test.ts
      // covers 20 starts at once, and the leg is run by hand (bench/NOTES.md).
      instances: 'off',
      archive: true,
      boardCost: true,
      // A small rush on this machine: the image's is run by hand (bench/NOTES.md).
      rush: { players: 20, spreadSec: 2, where: 'machine' },
    });
    const run = report.runs[0]!;
    expect(run.results.map((r) => r.scenario)).toEqual([
      'visitor-list',
      'signed-in-list',
      'list-304',
      'leaderboard',
      'leaderboard-page',
      'graph',
      'info',
      'submit',
      'wrong-flag',
      'regex-submit',
      'mixed',
      'first-view',
      'first-view-json',
    ]);
    for (const r of run.results) {
      expect(r.total, r.scenario).toBeGreaterThan(0);
      expect(r.errors, r.scenario).toBe(0);
    }
    expect(run.results.find((r) => r.scenario === 'list-304')!.non2xx).toBeGreaterThan(0);
    // One page's refresh is measured with the paged scenario, and is far smaller than the board.
    expect(run.refresh!.competitors).toBeGreaterThan(0);
    expect(run.refresh!.requests).toBe(3);
    expect(run.refresh!.bodyBytes).toBeGreaterThan(0);
    // Every acknowledged correct answer is recorded; a few more may be recorded whose answers were
    // still in flight when the load stopped (at most one per connection and scenario).
    expect(run.solvesRecorded).toBeGreaterThanOrEqual(run.correctAnswers);
    expect(run.solvesRecorded - run.correctAnswers).toBeLessThanOrEqual(3 * 4);
    // Issue 18: every wrong answer the flag scenarios were given is a row of the submission log.
    expect(run.wrongAnswers).toBeGreaterThan(0);
    expect(run.logged!.wrong).toBeGreaterThanOrEqual(run.wrongAnswers);
    // Issue 15: every stream opened, had every announcement, and stayed open through the load.
    const streams = run.streams!;
    expect(streams.opened.open).toBe(20);
    expect(streams.firstAnnouncement.status).toBe(200);
    expect(streams.announcements).toHaveLength(3);
    for (const a of streams.announcements) {
      expect(a.status).toBe(200);
      expect(a.received).toBe(20);
      expect(a.ms).toBeGreaterThan(0);
    }
    expect(streams.openAfter).toBe(20);
    expect(streams.mixedWith.total).toBeGreaterThan(0);
    // Issue 16: the dynamic leg, and the board's cost of a correct flag on both events.
    expect(report.dynamic!.results.map((r) => r.scenario)).toEqual(['visitor-list', 'leaderboard', 'graph']);
    for (const r of report.dynamic!.results) expect(r.errors, r.scenario).toBe(0);
    for (const cost of [run.boardCost!, report.dynamic!.boardCost!]) {
      expect(cost.samples).toBeGreaterThan(0);
      expect(cost.rebuildMs).toBeGreaterThan(0);
      expect(cost.updateMs).toBeGreaterThan(0);
    }
    expect(report.dynamic!.boardCost!.applyDynamicMs).toBeGreaterThan(0);
    const md = formatReport(report);
    expect(md).toContain('# Benchmark results');
    expect(md).toContain('| visitor-list | 4 |');
    expect(md).toContain('| signed-in-list | 4 |');
    expect(md).toContain('| graph | 4 |');
    expect(md).toContain('| regex-submit | 4 |');
    expect(md).toContain('Live event streams (issue 15)');
    expect(md).toContain('Dynamic scoring (issue 16)');
    expect(md).toContain('What a correct flag costs the scoreboard');
    // Issue 32: the static archive of the tiny event, every released challenge a page.
    expect(run.archive!.challenges).toBeGreaterThan(0);
    expect(run.archive!.pages).toBeGreaterThan(run.archive!.challenges);
    expect(run.archive!.peakRssMb).toBeGreaterThan(0);
    expect(md).toContain('Static archive (issue 32)');
    // The start of an event: every player signed in, played, and every acknowledged solve is on the board.
    const rush = report.rush!;
    expect(rush.signedIn).toBe(20);
    expect(rush.errors).toBe(0);
    expect(rush.acknowledged).toBe(20);
    expect(rush.onBoard).toBe(20);
    expect(md).toContain('Start-of-event rush');
  }, 240_000);
});
