import { counted, type PublicChallenge } from '@ctf/contract';
import type { Competitor, ScoreBoard } from '../scoreboard/score-board.js';
import { esc, pageEnd, pageStart, relative, timeTag, urlPart, type PageFrame } from './archive-html.js';

/** What the pages are made from, read once (event-archive.service.ts). */
export interface ArchiveData {
  event: { name: string; tagline: string; start: string; end: string };
  generatedAt: string;
  /** Whether the event had ended when the archive was built (solutions and writeups only then). */
  ended: boolean;
  /** The freeze the public board is as of (not lifted), or null. */
  frozenAt: string | null;
  board: ScoreBoard;
  divisions: { id: number; name: string; page: string }[];
  challenges: (PublicChallenge & { page: string })[];
  announcements: { title: string; body_html: string; pinned: boolean; created_at: string }[];
  /** The index page's graph (archive-graph.ts). */
  graph: string;
}

/** Rows of the scoreboard written per chunk: a 5,000-competitor board is never one string. */
const ROWS_PER_CHUNK = 500;
const TOP_ON_INDEX = 10;

const frame = (data: ArchiveData, title: string, path: string): PageFrame => ({
  event: data.event.name,
  title,
  path,
});

function frozenNote(data: ArchiveData): string {
  if (data.frozenAt === null) return '';
  return `<p class="muted">The scoreboard was frozen at ${timeTag(data.frozenAt)} and the freeze was not lifted: this archive shows the public board as of then.</p>\n`;
}

function divisionOf(data: ArchiveData, c: Competitor): string {
  if (c.divisionId === null) return '';
  return data.divisions.find((d) => d.id === c.divisionId)?.name ?? '';
}

function tableHead(data: ArchiveData, caption: string, withDivision: boolean): string {
  const division = withDivision ? '<th scope="col">Division</th>' : '';
  return `<div class="table-wrap"><table>
<caption>${esc(caption)}</caption>
<thead><tr><th scope="col" class="num">Rank</th><th scope="col">Name</th><th scope="col">Kind</th>${division}<th scope="col" class="num">Points</th><th scope="col" class="num">Solves</th></tr></thead>
<tbody>
`;
}

function row(data: ArchiveData, c: Competitor, rank: number, withDivision: boolean): string {
  const division = withDivision ? `<td>${esc(divisionOf(data, c))}</td>` : '';
  return `<tr><td class="num">${rank}</td><th scope="row">${esc(c.name)}</th><td>${c.kind === 'team' ? 'Team' : 'Player'}</td>${division}<td class="num">${c.points}</td><td class="num">${c.credits.size}</td></tr>\n`;
}

/** A scoreboard page (the whole board, or one division's: ranks within it), in chunks. */
export function* scoreboardPage(
  data: ArchiveData,
  division?: ArchiveData['divisions'][number],
): Generator<string> {
  const path = division ? division.page : 'scoreboard.html';
  const title = division ? `Scoreboard: ${division.name}` : 'Scoreboard';
  // NOTE: a copy: the board's ranking moves in place at a correct flag, and the page is written
  // in chunks across awaits (an archive may be taken during the event).
  const ranked = [...(division ? data.board.rankedIn(division.id) : data.board.ranked)];
  const withDivision = !division && data.divisions.length > 0;
  yield pageStart(frame(data, title, path));
  yield `<h1>${esc(title)}</h1>\n${frozenNote(data)}${divisionLinks(data, path)}`;
  if (ranked.length === 0) yield '<p>No competitor on this board.</p>\n';
  else {
    yield tableHead(data, `${title}: ${ranked.length} competitor(s), best first`, withDivision);
    for (let i = 0; i < ranked.length; i += ROWS_PER_CHUNK) {
      let chunk = '';
      for (let j = i; j < Math.min(ranked.length, i + ROWS_PER_CHUNK); j++)
        chunk += row(data, ranked[j]!, j + 1, withDivision);
      yield chunk;
    }
    yield '</tbody></table></div>\n';
  }
  yield pageEnd(data.generatedAt);
}

function divisionLinks(data: ArchiveData, from: string): string {
  if (data.divisions.length === 0) return '';
  const items = [{ page: 'scoreboard.html', name: 'Every division' }, ...data.divisions].map((d) =>
    d.page === from
      ? `<li><a href="${esc(relative(from, d.page))}" aria-current="page">${esc(d.name)}</a></li>`
      : `<li><a href="${esc(relative(from, d.page))}">${esc(d.name)}</a></li>`,
  );
  return `<nav aria-label="Divisions"><ul>${items.join('')}</ul></nav>\n`;
}

export function indexPage(data: ArchiveData): string {
  const { board } = data;
  const winners = [
    ...(board.ranked[0]
      ? [
          `<li>Winner: <strong>${esc(board.ranked[0].name)}</strong> with ${board.ranked[0].points} points</li>`,
        ]
      : []),
    ...data.divisions.flatMap((d) => {
      const first = board.rankedIn(d.id)[0];
      return first
        ? [
            `<li>Winner of ${esc(d.name)}: <strong>${esc(first.name)}</strong> with ${first.points} points</li>`,
          ]
        : [];
    }),
  ];
  const top = board.ranked.slice(0, TOP_ON_INDEX);
  const withDivision = data.divisions.length > 0;
  const topTable =
    top.length === 0
      ? '<p>No competitor scored.</p>\n'
      : tableHead(data, `The top ${top.length}`, withDivision) +
        top.map((c, i) => row(data, c, i + 1, withDivision)).join('') +
        '</tbody></table></div>\n';
  const divisions =
    data.divisions.length === 0
      ? ''
      : `<h2>Divisions</h2>\n<ul>${data.divisions.map((d) => `<li><a href="${esc(d.page)}">${esc(d.name)}</a></li>`).join('')}</ul>\n`;
  return (
    pageStart(frame(data, 'Home', 'index.html')) +
    `<h1>${esc(data.event.name)}</h1>
${data.event.tagline ? `<p>${esc(data.event.tagline)}</p>\n` : ''}<p>From ${timeTag(data.event.start)} to ${timeTag(data.event.end)}.</p>
${frozenNote(data)}${data.ended ? '' : '<p class="muted">The event had not ended when this archive was built: it holds no solutions or writeups.</p>\n'}<h2>Results</h2>
${winners.length > 0 ? `<ul class="winners">${winners.join('')}</ul>` : '<p>No one scored.</p>'}
${topTable}<p><a href="scoreboard.html">The full scoreboard (${counted(board.ranked.length, 'competitor')})</a> · <a href="challenges/index.html">Every challenge (${data.challenges.length})</a> · <a href="announcements.html">Announcements (${data.announcements.length})</a></p>
${divisions}<h2>Score graph</h2>
${data.graph}` +
    pageEnd(data.generatedAt)
  );
}

/** challenges/index.html: by category, each challenge's name, points, solves and first blood. */
export function challengesIndexPage(data: ArchiveData): string {
  const path = 'challenges/index.html';
  const categories = new Map<string, ArchiveData['challenges']>();
  for (const c of data.challenges) categories.set(c.category, [...(categories.get(c.category) ?? []), c]);
  const names = [...categories.keys()].sort((a, b) => a.localeCompare(b, 'en'));
  const sections = names.map((category) => {
    const rows = categories
      .get(category)!
      .map(
        (c) =>
          `<tr><th scope="row"><a href="${esc(relative(path, c.page))}">${esc(c.name)}</a></th><td class="num">${c.points}</td><td class="num">${c.user_completions}</td><td>${c.first_blood === null ? '<span class="muted">none</span>' : esc(c.first_blood)}</td></tr>`,
      )
      .join('\n');
    return `<h2>${esc(category)}</h2>
<div class="table-wrap"><table>
<caption>${esc(category)}: ${categories.get(category)!.length} challenge(s)</caption>
<thead><tr><th scope="col">Challenge</th><th scope="col" class="num">Points</th><th scope="col" class="num">Solves</th><th scope="col">First blood</th></tr></thead>
<tbody>
${rows}
</tbody></table></div>
`;
  });
  return (
    pageStart(frame(data, 'Challenges', path)) +
    `<h1>Challenges</h1>\n${data.challenges.length === 0 ? '<p>No challenge was released.</p>\n' : sections.join('')}` +
    pageEnd(data.generatedAt)
  );
}

/** What a challenge page shows besides the challenge (solutions and writeups, when there are). */
export interface ChallengeExtras {
  descriptionHtml: string;
  files: string[];
  /** Already archive-safe HTML sections (each starting with its <h2>). */
  sections: string[];
}

export function challengePage(
  data: ArchiveData,
  c: ArchiveData['challenges'][number],
  extras: ChallengeExtras,
): string {
  const files =
    extras.files.length === 0
      ? '<p>No files.</p>'
      : `<ul>${extras.files.map((f) => `<li><a href="${esc(relative(c.page, `files/${urlPart(f)}`))}">${esc(f)}</a></li>`).join('')}</ul>`;
  return (
    pageStart(frame(data, c.name, c.page)) +
    `<h1>${esc(c.name)}</h1>
<dl>
<dt>Category</dt><dd>${esc(c.category)}</dd>
<dt>Points</dt><dd>${c.points}</dd>
<dt>Difficulty</dt><dd>${esc(c.difficulty)}</dd>
<dt>Author</dt><dd>${esc(c.written_by)}</dd>
<dt>Solves</dt><dd>${c.user_completions}</dd>
<dt>First blood</dt><dd>${c.first_blood === null ? 'none' : esc(c.first_blood)}</dd>
</dl>
<h2>Description</h2>
<div class="description">${extras.descriptionHtml || '<p class="muted">No description.</p>'}</div>
<h2>Files</h2>
${files}
${extras.sections.join('\n')}<p><a href="index.html">Every challenge</a></p>
` +
    pageEnd(data.generatedAt)
  );
}

export function announcementsPage(data: ArchiveData): string {
  const items = data.announcements.map(
    (a) => `<article>
<h2>${esc(a.title)}${a.pinned ? ' <span class="muted">(pinned)</span>' : ''}</h2>
<p class="muted">${timeTag(a.created_at)}</p>
${a.body_html}
</article>
`,
  );
  return (
    pageStart(frame(data, 'Announcements', 'announcements.html')) +
    `<h1>Announcements</h1>\n${items.length === 0 ? '<p>No announcements.</p>\n' : items.join('')}` +
    pageEnd(data.generatedAt)
  );
}
