import { describe, expect, it } from 'vitest';
import { splitQuestions } from '../components/MarkdownHtml';
import { sanitizeHtml } from './sanitize';

/** Issue 29, reproductions 2, 6 and 7, in the browser's own pass over stored HTML. */
describe("the browser's sanitiser", () => {
  it('keeps rel="noopener noreferrer" that the server put on a new-tab link, and adds it where missing', () => {
    expect(sanitizeHtml('<a href="https://example.org" target="_blank" rel="noopener noreferrer">x</a>')).toBe(
      '<a href="https://example.org" target="_blank" rel="noopener noreferrer">x</a>',
    );
    // HTML that reached the database another way: no rel, or a rel that hands over the opener.
    expect(sanitizeHtml('<a href="https://example.org" target="_blank" rel="opener">x</a>')).toBe(
      '<a href="https://example.org" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeHtml('<a href="/rules" target="_top">r</a>')).toBe('<a href="/rules" rel="noopener noreferrer">r</a>');
  });

  it('drops the source of an image that points at the API', () => {
    for (const src of ['/api/auth/logout', '/api/admin/ctf/force_update', '/%61pi/admin/ctf/export', '../api/x'])
      expect(sanitizeHtml(`<img src="${src}" alt="x">`), src).toBe('<img alt="x">');
    expect(sanitizeHtml('<img src="https://example.org/x.png">')).toBe('<img src="https://example.org/x.png">');
  });
});

describe('splitQuestions', () => {
  it('splits on nodes: escaped text in an answer or the introduction stays text', () => {
    const html =
      '<p>Intro &lt;b&gt;</p>text &lt;img src=x onerror=alert(1)&gt;<h3>Q &lt;i&gt;</h3>&lt;img src=x onerror=alert(2)&gt;<p>A</p>';
    const { intro, items } = splitQuestions(html);
    expect(intro).toBe('<p>Intro &lt;b&gt;</p>text &lt;img src=x onerror=alert(1)&gt;');
    expect(items).toEqual([{ question: 'Q <i>', answer: '&lt;img src=x onerror=alert(2)&gt;<p>A</p>' }]);
    expect(intro + items[0]!.answer).not.toMatch(/<img/);
  });
});
