import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { sanitizeHtml } from '../lib/sanitize';

/** HTML the server rendered from Markdown and sanitised, sanitised again here before it is shown. */
export function safeHtml(html: string): string {
  return sanitizeHtml(html);
}

/**
 * Shows a settings text (About, Rules, an FAQ answer). A link to a page of this site moves within
 * the app, as the app's own links do, instead of loading the whole site again.
 */
export function MarkdownHtml({ html, className }: { html: string; className?: string }) {
  const navigate = useNavigate();
  function onClick(e: MouseEvent<HTMLDivElement>) {
    const link = (e.target as HTMLElement).closest('a');
    const href = link?.getAttribute('href');
    if (!link || !href || !href.startsWith('/') || href.startsWith('//') || href.startsWith('/api/')) return;
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || link.target === '_blank')
      return;
    e.preventDefault();
    void navigate(href);
  }
  return (
    // Clicks bubble up from the links inside (a link activated by the keyboard clicks too).
    <div className={className} onClick={onClick} dangerouslySetInnerHTML={{ __html: safeHtml(html) }} />
  );
}

/**
 * The FAQ's HTML as accordion items: each heading a question, what follows it (up to the next
 * heading) its answer. What comes before the first heading is the introduction.
 * NOTE: the split moves nodes into one container per part and serialises each container, so
 * text stays text: reading a text node's decoded content into HTML would turn an escaped
 * `&lt;img onerror&gt;` back into markup.
 */
export function splitQuestions(html: string): {
  intro: string;
  items: { question: string; answer: string }[];
} {
  const doc = new DOMParser().parseFromString(`<body>${safeHtml(html)}</body>`, 'text/html');
  const intro = doc.createElement('div');
  const parts: { question: string; answer: HTMLElement }[] = [];
  for (const node of Array.from(doc.body.childNodes)) {
    if (node instanceof HTMLElement && /^H[1-6]$/.test(node.tagName)) {
      parts.push({ question: node.textContent?.trim() ?? '', answer: doc.createElement('div') });
      continue;
    }
    (parts[parts.length - 1]?.answer ?? intro).appendChild(node);
  }
  return {
    intro: intro.innerHTML.trim(),
    items: parts.map((p) => ({ question: p.question, answer: p.answer.innerHTML })),
  };
}
