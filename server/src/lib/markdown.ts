import { Marked } from 'marked';
import { sanitizeHtml } from './sanitize-html.js';

/**
 * The one Markdown path (DESIGN.md §8): announcements, and whatever else admins write in Markdown
 * (hints, settings texts, imported descriptions), go through here. marked renders GitHub-flavoured
 * Markdown but passes raw HTML through (a <script> stays), so its output is always cleaned by the
 * challenge-description policy (sanitize-html.ts), and the browser cleans it again when it shows
 * it. Store or cache the result: rendering costs a DOM pass.
 */
const marked = new Marked({ gfm: true, breaks: false, async: false });

/** Markdown to safe HTML. */
export async function renderMarkdown(markdown: string): Promise<string> {
  const html = marked.parse(markdown, { async: false });
  return sanitizeHtml(html);
}
