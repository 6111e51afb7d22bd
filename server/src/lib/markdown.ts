import { Marked } from 'marked';
import { sanitizeHtml } from './sanitize-html.js';

/**
 * The one Markdown path (DESIGN.md §8): hints, announcements, settings texts and imported
 * descriptions are rendered by marked and then cleaned by the same policy as challenge HTML
 * (marked passes raw HTML through, so its output is never trusted as it is). The browser sanitises
 * the stored HTML again when it shows it.
 */
const marked = new Marked({ gfm: true, breaks: false, async: false });

/** Markdown -> safe HTML, as stored and served. */
export async function renderMarkdown(markdown: string): Promise<string> {
  if (!markdown.trim()) return '';
  const html = marked.parse(markdown, { async: false }) as string;
  return (await sanitizeHtml(html)).trim();
}
