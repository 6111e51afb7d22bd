/**
 * docs/lighthouse.md as scripts/lighthouse.ts writes it: the page is never edited by hand, so its
 * history sections live here, beside the table each run fills in.
 */
export const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
export type Category = (typeof CATEGORIES)[number];

/**
 * The score under which a row fails the run: the target for accessibility and best practices; for
 * performance the gate on a gated row (a player page on mobile), and nothing on the others (the
 * admin panel, the desktop preset), which are reported against the target only.
 */
export function limitFor(
  category: Category,
  gates: { minScore: number; performanceGate: number },
  row: Pick<Row, 'gated'>,
): number {
  if (category !== 'performance') return gates.minScore;
  return row.gated ? gates.performanceGate : 0;
}

/** Each score of `rows` under its limit, as `form-factor theme page: category score`. */
export function scoresUnder(rows: readonly Row[], limit: (category: Category, row: Row) => number): string[] {
  return rows.flatMap((r) =>
    CATEGORIES.filter((c) => r.scores[c] < limit(c, r)).map(
      (c) => `${r.formFactor} ${r.theme} ${r.page}: ${c} ${r.scores[c]}`,
    ),
  );
}

export interface Row {
  page: string;
  formFactor: 'mobile' | 'desktop';
  theme: 'light' | 'dark';
  scores: Record<Category, number>;
  /** The performance score of every run, in the order measured. */
  performanceRuns: number[];
  /** Lighthouse's benchmarkIndex of every run (how fast this machine ran its CPU benchmark then). */
  benchmarkIndexes: number[];
  /** A player page on mobile: its performance fails the run under the gate (the median of its runs). */
  gated: boolean;
  /** The page's JavaScript as sent (compressed), in kB: what it costs the phone to fetch. */
  scriptKb: number;
  metrics: { fcp: string; lcp: string; tbt: string; cls: string };
  failing: string[];
}

export interface Report {
  rows: Row[];
  /** Runs of each gated row (the median is kept). */
  runs: number;
  /** Runs of each other row. */
  otherRuns: number;
  /** The target for every score. */
  minScore: number;
  /** The performance score under which the run failed (the target, or CI's floor). */
  performanceGate: number;
  lighthouseVersion: string;
  chromiumVersion: string;
  minutes: string;
  /** Written by CI's run (.ci/run), not a developer's. */
  ci: boolean;
  /** What the demo seed said it made. */
  seeded: string;
  /** The machine's load average when the run began, and its CPU count. */
  load: { average: number; cpus: number };
}

export function renderReport(o: Report): string {
  const table = o.rows
    .map(
      (r) =>
        `| ${r.page} | ${r.formFactor} | ${r.theme} | ${r.scores.performance}${r.gated ? '' : ' (not gated)'} | ${r.scores.accessibility} | ${r.scores['best-practices']} | ${r.metrics.fcp} | ${r.metrics.lcp} | ${r.metrics.tbt} | ${r.metrics.cls} | ${r.scriptKb} kB | ${r.performanceRuns.join(', ')} | ${r.benchmarkIndexes.join(', ')} |`,
    )
    .join('\n');
  const seeded = o.seeded
    .split('\n')
    .filter((l) => l.startsWith('Added an event'))
    .map((l) => l.replace(/^Added an event under way: /, '').replace(/\.$/, ''))
    .join(' ');
  const under = o.rows.filter((r) => CATEGORIES.some((c) => r.scores[c] < o.minScore));
  const failed = o.rows.filter((r) => CATEGORIES.some((c) => r.scores[c] < limitFor(c, o, r)));
  const list = (rows: Row[]) => rows.map((r) => `${r.page} (${r.formFactor}, ${r.theme})`).join('; ');
  const target =
    under.length === 0 ? `Every score of this run reached it.` : `Under it in this run: ${list(under)}.`;
  const gate =
    o.performanceGate === o.minScore
      ? `This run failed when a score was under ${o.minScore}${failed.length ? `, and it did: ${list(failed)}` : ', and none was'}.`
      : `This run failed when an accessibility or best-practices score was under ${o.minScore} or the performance of a player page on mobile under ${o.performanceGate} (LIGHTHOUSE_PERFORMANCE_GATE, as .ci/run sets it)${failed.length ? `, and it did: ${list(failed)}` : ', and none was'}.`;
  return `# Lighthouse scores

Recorded by \`npm run lighthouse\` (scripts/lighthouse.ts)${o.ci ? ' in CI (.ci/run)' : ''} on ${new Date().toISOString().slice(0, 10)},
in ${o.minutes} minutes, on a machine of ${o.load.cpus} CPUs whose load average was ${o.load.average.toFixed(1)} when it
began: Lighthouse ${o.lighthouseVersion} driving Debian's Chromium ${o.chromiumVersion} (headless), one browser for every run, against the
production build served by the real server (\`node server/dist/server.js\`, SQLite, assets sent
Brotli-compressed).

The site holds the demo event under way (\`npm run seed:demo -- --event\`, server/src/scripts/seed-demo-event.ts):
${seeded}; its dates run from the first solve to tomorrow. Beside it, the small event of the
end-to-end tests (two teams, players, solves and ratings). The player pages are measured signed in
as bob, a member of the team Packet Pirates (the session cookie is passed in Lighthouse's
\`extraHeaders\`); Home as a visitor; the admin panel as an organiser. "Challenge with hints" is a
challenge with two hints, bob's first one unlocked.

Each player page on mobile is the median of ${o.runs} runs by performance (its performance is gated);
every other row is ${o.otherRuns === 1 ? 'one run' : `the median of ${o.otherRuns} runs`} (reported, its performance not gated), so the whole
measurement stays within about ten minutes of CI. "JS" is the page's JavaScript as sent
(compressed); the last two columns give every run's performance score and Lighthouse's
\`benchmarkIndex\` of that run (its CPU benchmark on this machine: 1,000-2,000 is the mid to
high-end desktop range its 4x slowdown is calibrated for; a low figure says the machine was busy
during that run). "mobile" is Lighthouse's default (a mid-range phone on simulated slow 4G, 150 ms round
trips, with a 4x slower CPU); "desktop" its desktop preset. "dark" is the page in the site's dark
theme (the browser asks for a dark colour scheme), measured where the theme changes more than CSS
colours (the score graph is drawn in the theme's colours) and on Compete.

| page | form factor | theme | performance | accessibility | best practices | FCP | LCP | TBT | CLS | JS | performance of each run | benchmarkIndex of each run |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${table}

**The target**: every score of every row at least ${o.minScore}. ${target}

**The gate**: ${gate}

**Variance.** Lighthouse simulates the slow phone: it multiplies the time each task took in the real,
unthrottled load by 4. Whatever else loads the machine's CPU makes the page's tasks longer, so the
performance score (total blocking time above all) falls on a busy machine; accessibility and best
practices do not move. The median of three runs takes out a single unlucky run; a run on a machine
shared with other heavy work can still fall under the gate, and then says nothing about the page.

## The first view from the server

Until this work the leaderboard scored 74-77 on mobile on this kind of machine (home 86-93,
Compete 88, the rest 83-93), although Lighthouse's own \`benchmarkIndex\` measured the host at
1,790-2,550, the high-end desktop range its 4x CPU slowdown is calibrated for: the low score was
the page's own work on a mid-range phone. Nothing was drawn until about 420 kB of script had been
compiled and React had rendered the page (largest paint 2.8-3.1 s, total blocking time 580-800 ms).
What changed (docs/decisions/0019-server-rendered-first-view.md):

- Home, the leaderboard, Compete, a challenge's page (during the event), the announcements and the rules are
  rendered by the server with the app's
  own components (\`react-dom/server\`, web/dist-ssr) from the same cached answers the API sends,
  and hydrated in the browser from those answers, carried in the page: the largest paint is the
  server's HTML (the page's heading), and the browser asks for none of those answers again.
  "My position" and the navbar's user come after hydration (on Compete, whose cards are marked
  from the player's own record, and on a challenge's page, drawn from the player's own answer for
  it, those answers are carried too). Each page's head inlines the
  stylesheet's rules its HTML can match.
- The score graph is asked for, loaded and drawn once the browser is idle after the first paint;
  the board's rows have a fixed height (no row measured on mount); the entry script has a budget
  of its own (90 kB gzipped, 79 kB now) in the bundle check, which prints what each page loads on
  top of the first page. The JS column above is what each page's scripts weighed as sent.
- Profile (drawn by the browser: it is the player's own) measured 84 (84, 84, 93) in a full run:
  its sections were drawn in one long task when the user's answer arrived. They are now drawn
  from it at a transition's priority (\`useDeferredValue\`, in slices), and the parts below the
  profile (writeups, sign-in methods, API tokens, the stats, practice solves) once the browser is
  idle, each in a task of its own: 95 (95, 97, 94) in the same hour.

Measured here: the full run of 2026-11-28 with this work (load average 1.4-2.7, \`benchmarkIndex\` 2,083-2,864) has
every player page on mobile at 96-98, the leaderboard 98 (largest paint 1.9 s, total blocking
time 50-60 ms, layout shift 0). Earlier runs of this work on the machine while other helpers' test
suites ran (load average 3-16) had medians of 80-98 on the leaderboard; two causes were found and
fixed: the caller's rank reached the page before its Suspense boundary had hydrated, so React threw
the server's HTML away and drew the page again (a layout shift of 0.32 in one run in three, now a
failure of e2e/first-view.test.ts on a 4x slower CPU), and the announcements' dates filled an empty
line (layout shift 0.06). A run whose \`benchmarkIndex\` falls far under the others (400-900)
ran while something else held the CPUs, and its score says nothing about the page: the median of
three takes one such run out, not two. Single runs still fall to 79-83 now and then (79 on the
leaderboard, 83 on Home in that run), with no console error and a normal \`benchmarkIndex\`; the
median keeps them out of the gate.

## Why the gate is 90, not 95

CI fails when a player page on mobile has a median performance under 90, and when any
accessibility or best-practices score is under 95. The target stays 95: every row under it is
listed above and printed by the script, and \`npm run lighthouse\` on its own fails under 95. The
remaining time on the leaderboard is the hydration of the page (React and the board, about 140 kB
of compressed JavaScript compiled and run) and the graph's drawing, which Lighthouse's simulation
multiplies by 4; on a busy machine those tasks grow with the load, so a single busy run falls
under 90 while the page, on a quiet machine, scores 95-98. The gate was 60 before this work
(the leaderboard could not reach more than 77 here, see "What moved the leaderboard" for the
history); 95 would fail CI on every busy run.

Only the player pages on mobile are measured three times (the gate needs a median); the desktop
rows and the admin panel run once and are reported, not gated on performance, which keeps the
whole measurement (after seeding the demo event) to about 4-6 minutes.

## What moved the leaderboard

The leaderboard measured 64-67 on mobile once its score graph was drawn (total blocking time 590-840
ms, cumulative layout shift 0.22-0.27); measured here on this event, the build before this work made
46-55 on mobile (50-53 in the dark theme; total blocking time 1.2-5.2 s, layout shift 0.25-0.32) and
67 on desktop, against 84-92 (71-77 dark; total blocking time 0.2-1.4 s, layout shift 0) and 100 for
the build after it, three runs each in the same hour on the same busy machine (load average 12-18
on 2 CPUs). What changed:

- The graph is drawn on a canvas by uPlot (a 50 kB chart for time series; Recharts was 330 kB and
  drew every line as SVG), loaded with the graph only. It draws after the page's first paint, in
  two tasks (the empty chart, then the lines), and a line goes only through its own points, a few
  hundred each, not through every competitor's times.
- The graph's box has its final height before anything in it loads: the loading notice stands in
  it, the legend is drawn by the page (not by the chart's code), and the canvas takes the rest. The
  podium and the list below never move (layout shift 0).
- The graph's table (a row for each of the top 10's solves: thousands in a long event) is made only
  when it is opened; it was rendered, hidden, with the page.
- The graph's data is asked for when the page draws, not at start-up with the page's other calls:
  its 14 kB came over the slow link before the page's own code and held the first paint back, and
  its box keeps its size without it.
- The Team Stats pie is plain SVG drawn by React: Recharts left the build.
- With the graph drawn, the leaderboard now measures as a build without the graph does: in runs
  taken in turns on the same busy machine, 75-97 on mobile without the graph, 89-96 with it; the
  scores under 95 come from the machine, not from the page.
- Home: the pinned announcement (this event has one) was drawn after the first paint, pushing the
  page down (layout shift 0.16, performance 88-96): the announcements are now asked for at
  start-up with the navbar's other calls (its unread count needs them on every page anyway) and
  the announcement is drawn with the page's first render.

## What moved mobile performance

Until this work the mobile performance scores were 92 (Home), 84 (Compete) and 92 (Leaderboard), and
not gated: nothing showed before about 140 kB of compressed JavaScript and 31 kB of render-blocking
CSS had crossed the slow link and run (first contentful paint 2.3-2.5 s, largest contentful paint
2.6-3.1 s, total blocking time 150-310 ms). What changed:

- index.html paints the layout itself: the skip link, the navbar and the loading notice, a copy of
  the app's own first render (web/src/app/shell.test.tsx fails if the two differ), styled by the
  stylesheet's rules that can match it, inlined. The stylesheet moved to the end of the body, where
  it still holds the scripts back (React never draws without it) but not that paint.
- Bootstrap's unused rules are dropped at build time (scripts/trim-css.mjs): 231 to 132 kB, 31 to
  19 kB gzipped.
- zod and the API schemas left the browser: the web imports the contract's schema-free entry
  (contract/src/client.ts: methods, paths, rules, texts and types); the server validates every body
  and answer with the full contract as before. First-page JavaScript: 142 to 118 kB gzipped.
- The first page's code comes in four files instead of twelve (three, and the page's own), and a
  lazy page's in one instead of up to nine: over HTTP/1.1's six connections the small chunks loaded
  in rounds, a 150 ms round trip each.
- The opened page's code loads before the first render, so that render draws the page, not
  React.lazy's fallback (which React then holds for at least 300 ms); it renders in a transition,
  in slices, so no long task blocks the main thread; and the navbar's user call (and on Compete a
  team member's completions) starts with the page's other calls instead of after a render.
- index.html (18 kB with its inlined CSS) goes in the build's Brotli copy, 4 kB, when the browser
  accepts it (server/src/plugins/web-app.ts); so do the challenge list and the leaderboard.

Mobile first contentful paint varies from run to run, between about 0.8 and 2 s: Lighthouse's
simulation counts everything the real, unthrottled load had finished before its first paint, and on
a busy machine that paint sometimes comes only after the scripts have arrived.

## The JavaScript budget

The first page's JavaScript budget (150 kB gzipped) is enforced by the build: \`npm run build\` prints
the figure (scripts/check-bundle.mjs) and fails over it, or when the chart library or the admin
panel is among the first page's files. It then prints what each other page loads on top of it, and
what it loads later still (the leaderboard's chart).
`;
}
