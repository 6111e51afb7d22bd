import { Marked } from 'marked';
import { sanitizeHtml } from './sanitize-html.js';

/**
 * The one Markdown path (DESIGN.md §8): announcements, hints, settings texts and imported
 * descriptions are rendered here and cleaned by the same policy as challenge HTML. marked passes
 * raw HTML through (a <script> stays), so its output is never used without the sanitiser; the
 * browser sanitises again before showing it.
 */
const marked = new Marked({ gfm: true, breaks: false, async: false });

/** Safe HTML for a Markdown text ('' for ''). */
export async function renderMarkdown(markdown: string): Promise<string> {
  if (!markdown.trim()) return '';
  const html = marked.parse(markdown, { async: false });
  return sanitizeHtml(html);
}
