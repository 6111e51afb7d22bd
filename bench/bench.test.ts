import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_ENTRY, SERVER_NODE_FLAGS } from '../e2e/support/server.js';
import { formatReport } from './report.js';
import { SCENARIOS, runBench } from './run.js';
import { TINY_EVENT } from './seed.js';

/**
 * Not a benchmark: a quick run of the seed generator and every load scenario on a tiny event, so
 * `npm run bench` cannot rot unnoticed. No timing is asserted here.
 */
describe('benchmark harness', () => {
  it('measures the server as `npm start` runs it: the same entry and Node flags', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: { start: string };
    };
    const command = ['node', ...SERVER_NODE_FLAGS, path.relative(root, SERVER_ENTRY)].join(' ');
    expect(pkg.scripts.start).toBe(`npm run build && ${command}`);
  });

  it('seeds a tiny event and runs every scenario end to end', async () => {
    const report = await runBench({
      databases: ['sqlite'],
      size: TINY_EVENT,
      doubleSize: null,
      durationSec: 1,
      connections: [4],
      scenarios: SCENARIOS,
      workers: false,
    });
    const run = report.runs[0]!;
    expect(run.results.map((r) => r.scenario)).toEqual([
      'list',
      'list-304',
      'leaderboard',
      'leaderboard-page',
      'info',
      'submit',
      'wrong-flag',
      'mixed',
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
    expect(run.solvesRecorded - run.correctAnswers).toBeLessThanOrEqual(2 * 4);
    const md = formatReport(report);
    expect(md).toContain('# Benchmark results');
    expect(md).toContain('| list | 4 |');
  }, 120_000);
});
