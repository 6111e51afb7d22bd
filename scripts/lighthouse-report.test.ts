import { describe, expect, it } from 'vitest';
import { limitFor, renderReport, scoresUnder, type Report, type Row } from './lighthouse-report.js';

const row = (page: string, scores: Partial<Row['scores']>, gated = true): Row => ({
  page,
  formFactor: gated ? 'mobile' : 'desktop',
  theme: 'light',
  scores: { performance: 100, accessibility: 100, 'best-practices': 100, ...scores },
  performanceRuns: [scores.performance ?? 100],
  benchmarkIndexes: [1850],
  gated,
  scriptKb: 140,
  metrics: { fcp: '1.0 s', lcp: '1.2 s', tbt: '0 ms', cls: '0' },
  failing: [],
});

const report = (rows: Row[], performanceGate: number): Report => ({
  rows,
  runs: 3,
  otherRuns: 1,
  minScore: 95,
  performanceGate,
  lighthouseVersion: '12.8.2',
  chromiumVersion: '156.0.8078.108',
  minutes: '5.0',
  ci: true,
  seeded: 'Added an event under way: 3 challenges.',
  load: { average: 0.5, cpus: 2 },
});

describe('docs/lighthouse.md', () => {
  it('lists the rows under the target apart from the ones that failed the run', () => {
    const text = renderReport(
      report([row('Leaderboard (/leaderboard)', { performance: 76 }), row('Rules (/rules)', {})], 60),
    );
    expect(text).toContain('Under it in this run: Leaderboard (/leaderboard) (mobile, light).');
    expect(text).toContain(
      'the performance of a player page on mobile under 60 (LIGHTHOUSE_PERFORMANCE_GATE',
    );
    // Each run's benchmarkIndex beside its score, and the page's JavaScript.
    expect(text).toContain('| 140 kB | 76 | 1850 |');
    expect(text).toContain(', and none was.');
    expect(text).toContain("Debian's Chromium 156.0.8078.108");
  });

  it('names what failed: accessibility under the target whatever the performance floor', () => {
    const text = renderReport(
      report([row('Home (/)', { accessibility: 90 }), row('Compete (/compete)', { performance: 50 })], 60),
    );
    expect(text).toContain(', and it did: Home (/) (mobile, light); Compete (/compete) (mobile, light).');
  });

  it('without a floor, fails under the target itself', () => {
    const text = renderReport(report([row('Rules (/rules)', { performance: 94 })], 95));
    expect(text).toContain(
      'This run failed when a score was under 95, and it did: Rules (/rules) (mobile, light).',
    );
  });

  it('fails the run on the same scores the report names (scoresUnder with limitFor)', () => {
    const rows = [
      row('Home (/)', { accessibility: 90 }),
      row('Leaderboard (/leaderboard)', { performance: 76 }),
    ];
    const gates = { minScore: 95, performanceGate: 60 };
    expect(scoresUnder(rows, (c, r) => limitFor(c, gates, r))).toEqual([
      'mobile light Home (/): accessibility 90',
    ]);
    expect(scoresUnder(rows, () => 95)).toEqual([
      'mobile light Home (/): accessibility 90',
      'mobile light Leaderboard (/leaderboard): performance 76',
    ]);
  });

  it('gates performance on the player pages on mobile only; the other rows are reported against the target', () => {
    const rows = [
      row('Leaderboard (/leaderboard)', { performance: 89 }),
      row('Admin panel (/admin/panel)', { performance: 70 }, false),
      row('Leaderboard (/leaderboard)', { accessibility: 94 }, false),
    ];
    const gates = { minScore: 95, performanceGate: 90 };
    expect(scoresUnder(rows, (c, r) => limitFor(c, gates, r))).toEqual([
      'mobile light Leaderboard (/leaderboard): performance 89',
      'desktop light Leaderboard (/leaderboard): accessibility 94',
    ]);
    const text = renderReport(report(rows, 90));
    expect(text).toContain('| 70 (not gated) |');
    expect(text).toContain('every other row is one run');
  });
});
