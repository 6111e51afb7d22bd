import {
  CHALLENGE_PAGE_SIZE,
  DESCRIPTION_PREVIEW_LENGTH,
  PREVIEW_BLOCK_ELEMENTS,
  PREVIEW_NO_TEXT_ELEMENTS,
  UI_TEXT,
  type PublicChallenge,
} from '@ctf/contract';

/** The Compete page's filters (docs/product.md §2). Empty strings mean "any". */
export interface ChallengeFilters {
  search: string;
  category: string;
  difficulty: string;
  minRating: number;
  author: string;
  myCompleted: boolean;
  myUncompleted: boolean;
  teamCompleted: boolean;
  teamUncompleted: boolean;
}

/** Defaults: my uncompleted and team uncompleted on, all others off; Clear Filters returns here. */
export const DEFAULT_FILTERS: Readonly<ChallengeFilters> = {
  search: '',
  category: '',
  difficulty: '',
  minRating: 0,
  author: '',
  myCompleted: false,
  myUncompleted: true,
  teamCompleted: false,
  teamUncompleted: true,
};

/** What the list is filtered against: ids the user solved, and the team's (null when on no team). */
export interface CompletionState {
  mine: ReadonlySet<string>;
  team: ReadonlySet<string> | null;
}

/** The author as shown and filtered: 'Unknown Author' when the challenge names none. */
export function authorOf(challenge: Pick<PublicChallenge, 'written_by'>): string {
  return challenge.written_by.trim() || UI_TEXT.unknownAuthor;
}

/**
 * A completed/uncompleted checkbox pair: one box on keeps only that side; both on or both off
 * keep everything (ticking both means "show me all of them").
 */
function passesPair(done: boolean, showCompleted: boolean, showUncompleted: boolean): boolean {
  if (showCompleted === showUncompleted) return true;
  return showCompleted ? done : !done;
}

/** The challenges the filters keep, in the order given. Team boxes apply only to team members. */
export function filterChallenges(
  challenges: readonly PublicChallenge[],
  filters: ChallengeFilters,
  completions: CompletionState,
): PublicChallenge[] {
  const needle = filters.search.trim().toLowerCase();
  return challenges.filter((c) => {
    const author = authorOf(c);
    if (
      needle &&
      !c.name.toLowerCase().includes(needle) &&
      !c.category.toLowerCase().includes(needle) &&
      !author.toLowerCase().includes(needle)
    ) {
      return false;
    }
    if (filters.category && c.category !== filters.category) return false;
    if (filters.difficulty && c.difficulty !== filters.difficulty) return false;
    if (c.rating < filters.minRating) return false;
    if (filters.author && author !== filters.author) return false;
    if (!passesPair(completions.mine.has(c._id), filters.myCompleted, filters.myUncompleted)) return false;
    if (
      completions.team &&
      !passesPair(completions.team.has(c._id), filters.teamCompleted, filters.teamUncompleted)
    ) {
      return false;
    }
    return true;
  });
}

/** Distinct authors for the author select, sorted case-insensitively. */
export function authorsOf(challenges: readonly PublicChallenge[]): string[] {
  return [...new Set(challenges.map(authorOf))].sort((a, b) =>
    a.localeCompare(b, undefined, { sensitivity: 'base' }),
  );
}

export interface PageSlice<T> {
  items: T[];
  page: number;
  pageCount: number;
}

/** One page of CHALLENGE_PAGE_SIZE; the page is clamped so a shrinking list never shows an empty page. */
export function paginate<T>(items: readonly T[], page: number, pageSize = CHALLENGE_PAGE_SIZE): PageSlice<T> {
  const pageCount = Math.max(1, Math.ceil(items.length / pageSize));
  const current = Math.min(Math.max(1, Math.floor(page)), pageCount);
  const start = (current - 1) * pageSize;
  return { items: items.slice(start, start + pageSize), page: current, pageCount };
}

const NO_TEXT = PREVIEW_NO_TEXT_ELEMENTS.join(', ');
const BLOCKS = PREVIEW_BLOCK_ELEMENTS.join(', ');

/** Set by the server's renderer (web/src/entry-server.tsx): there is no DOMParser there. */
let serverVisibleText: ((html: string) => string) | undefined;

/**
 * The server renders Compete's first view with its own reading of the HTML, by the same lists
 * (server/src/lib/html-text.ts); the browser keeps DOMParser for what it draws itself.
 */
export function setServerVisibleText(visibleText: (html: string) => string): void {
  serverVisibleText = visibleText;
}

/** The HTML's visible text, blocks followed by a space, whitespace as it is. */
function visibleText(html: string): string {
  if (serverVisibleText) return serverVisibleText(html);
  const doc = new DOMParser().parseFromString(html, 'text/html');
  doc.body.querySelectorAll(NO_TEXT).forEach((el) => el.remove());
  doc.body.querySelectorAll(BLOCKS).forEach((el) => el.after(doc.createTextNode(' ')));
  return doc.body.textContent ?? '';
}

/**
 * The card's description: the HTML's visible text only (an inert parse: no script runs, nothing
 * loads), blocks separated by a space, whitespace collapsed, cut to DESCRIPTION_PREVIEW_LENGTH
 * characters.
 */
export function descriptionPreview(html: string): string {
  const text = visibleText(html).replace(/\s+/g, ' ').trim();
  const chars = Array.from(text);
  if (chars.length <= DESCRIPTION_PREVIEW_LENGTH) return text;
  return `${chars.slice(0, DESCRIPTION_PREVIEW_LENGTH).join('').trimEnd()}...`;
}
