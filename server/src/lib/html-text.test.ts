import { PREVIEW_BLOCK_ELEMENTS, PREVIEW_NO_TEXT_ELEMENTS } from '@ctf/contract';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { visibleText } from './html-text.js';

/** The browser's reading (web/src/features/challenges/filter.ts) on a standard DOM, as the oracle. */
function browserVisibleText(html: string): string {
  const doc = new new JSDOM('').window.DOMParser().parseFromString(html, 'text/html');
  doc.body.querySelectorAll(PREVIEW_NO_TEXT_ELEMENTS.join(', ')).forEach((el) => el.remove());
  doc.body
    .querySelectorAll(PREVIEW_BLOCK_ELEMENTS.join(', '))
    .forEach((el) => el.after(doc.createTextNode(' ')));
  return doc.body.textContent ?? '';
}

const FRAGMENTS = [
  '<p>Find the <strong>flag</strong> in <code>app.py</code>.</p><p>Good luck!</p>',
  '<h2>Intro</h2><ul><li>one</li><li>two &amp; three</li></ul><pre>x  =  1\n</pre>',
  'Plain text with &lt;tags&gt; &quot;quoted&quot; &#x27;single&#x27; &nbsp;and&#160;spaces',
  '<div><script>alert(1)</script><style>p{}</style>visible<br>after break</div>',
  '<table><tr><td>a</td><td>b</td></tr></table><blockquote>quote</blockquote>',
  '<a href="https://example.org" target="_blank" rel="noopener noreferrer">link</a> and <em>emph</em>',
  '<p>emoji 🚩 and accents é ü</p><noscript>hidden</noscript><template><p>never</p></template>',
  '',
];

describe('the visible text of stored HTML, as the browser reads it for a card preview', () => {
  it('drops the text of scripts, styles, noscript and templates, and puts a space after each block', () => {
    expect(visibleText('<p>Find <b>it</b></p><p>now</p><script>x()</script>')).toBe('Find it now ');
    expect(visibleText('a<br>b<ul><li>c</li></ul>')).toBe('a bc  ');
    expect(visibleText('&lt;b&gt; &amp; &quot;')).toBe('<b> & "');
  });

  it.each(FRAGMENTS)('reads %j as a standard DOM does', (html) => {
    expect(visibleText(html)).toBe(browserVisibleText(html));
  });
});
