/**
 * The archive's page frame and HTML helpers (issue 32): plain HTML, one small CSS file, no
 * script; every link relative. Every string that is not already-safe HTML goes through esc().
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text (or an attribute value) as HTML: names are chosen by players. */
export function esc(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** A relative URL's path part for a file or page name (spaces, parentheses, %, # ... encoded). */
export function urlPart(name: string): string {
  return encodeURIComponent(name).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** A date as people read it, in UTC (a static page knows no reader's time zone). */
export function dateText(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function timeTag(iso: string): string {
  return `<time datetime="${esc(iso)}">${esc(dateText(iso))}</time>`;
}

/** The archive's pages, for the navigation (path from the archive's root). */
const NAV = [
  ['index.html', 'Home'],
  ['scoreboard.html', 'Scoreboard'],
  ['challenges/index.html', 'Challenges'],
  ['announcements.html', 'Announcements'],
] as const;

export interface PageFrame {
  /** The event's name (in every title and the header). */
  event: string;
  /** This page's title (before the event's name in <title>). */
  title: string;
  /** This page's path from the archive's root: its links are made relative to it. */
  path: string;
}

/** The relative URL from the page at `from` to `to` (both paths from the archive's root). */
export function relative(from: string, to: string): string {
  const depth = from.split('/').length - 1;
  return `${'../'.repeat(depth)}${to}`;
}

/** A page's opening, down to the start of its <main> (which the page's body fills). */
export function pageStart(frame: PageFrame): string {
  const to = (p: string) => esc(relative(frame.path, p));
  const nav = NAV.map(
    ([p, label]) =>
      `<li><a href="${to(p)}"${p === frame.path ? ' aria-current="page"' : ''}>${esc(label)}</a></li>`,
  ).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'">
<title>${esc(frame.title)} · ${esc(frame.event)}</title>
<link rel="stylesheet" href="${to('style.css')}">
</head>
<body>
<header><p class="event"><a href="${to('index.html')}">${esc(frame.event)}</a></p>
<nav aria-label="Archive"><ul>${nav}</ul></nav></header>
<main>
`;
}

export function pageEnd(generatedAt: string): string {
  return `</main>
<footer><p>Static archive of the event, built ${timeTag(generatedAt)}.</p></footer>
</body>
</html>
`;
}

/** The one style sheet: readable, high-contrast, narrow screens first. */
export const STYLE_CSS = `:root { color-scheme: light; }
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #1b1b1b; background: #fff; }
header, main, footer { max-width: 60rem; margin: 0 auto; padding: 0.75rem 1rem; }
header { border-bottom: 1px solid #ccc; }
header .event { font-weight: bold; font-size: 1.2rem; margin: 0; }
nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: 1rem; padding: 0; margin: 0.5rem 0 0; }
a { color: #0b4f9c; }
a[aria-current="page"] { font-weight: bold; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1rem; }
caption { text-align: left; font-weight: bold; padding: 0.25rem 0; }
th, td { border-bottom: 1px solid #ddd; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; }
.table-wrap { overflow-x: auto; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
dt { font-weight: bold; }
dd { margin: 0; }
.graph svg { max-width: 100%; height: auto; }
.muted { color: #555; }
pre, code { white-space: pre-wrap; word-break: break-word; }
footer { border-top: 1px solid #ccc; color: #555; }
`;
