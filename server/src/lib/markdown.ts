import { markdownBudgetProblem } from '@ctf/contract';
import { Marked } from 'marked';
import { badInput } from './errors.js';
import { sanitizeHtml } from './sanitize-html.js';

/**
 * The one Markdown path (docs/product.md §15): hints, announcements, settings texts and imported
 * descriptions are rendered by marked and then cleaned by the same policy as challenge HTML
 * (marked passes raw HTML through, so its output is never trusted as it is). The browser sanitises
 * the stored HTML again when it shows it.
 */
const marked = new Marked({ gfm: true, breaks: false, async: false });

/**
 * Markdown -> safe HTML, as stored and served. Text nested past the budget is refused before marked
 * sees it (every caller's contract checks it first; this holds for any other path): the parse runs
 * on the event loop, and within the budget and the fields' lengths it takes milliseconds.
 */
export async function renderMarkdown(markdown: string): Promise<string> {
  if (!markdown.trim()) return '';
  const problem = markdownBudgetProblem(markdown);
  if (problem) throw badInput(`The Markdown ${problem}: refused.`);
  const html = marked.parse(markdown, { async: false }) as string;
  return (await sanitizeHtml(html)).trim();
}
