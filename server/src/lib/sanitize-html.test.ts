import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.js';
import { sanitizeHtml } from './sanitize-html.js';

describe('sanitizeHtml', () => {
  it('keeps ordinary formatting, lists, tables, code and images (void elements written as <br />)', async () => {
    const html =
      '<h2>Title</h2><p><b>bold</b> <strong>s</strong> <i>i</i> <em>e</em> <u>u</u> <s>s</s><br />line</p>' +
      '<ul><li>one</li></ul><ol start="3"><li>three</li></ol>' +
      '<table><thead><tr><th>h</th></tr></thead><tbody><tr><td colspan="2">c</td></tr></tbody></table>' +
      '<pre><code>nc host 2530</code></pre><blockquote>q</blockquote>' +
      '<img src="https://example.org/x.png" alt="x" width="10" />';
    expect(await sanitizeHtml(html)).toBe(html);
  });

  it('keeps http, https, mailto and relative links and adds rel="noopener noreferrer"', async () => {
    expect(await sanitizeHtml('<a href="https://example.org/a">a</a>')).toBe(
      '<a href="https://example.org/a" rel="noopener noreferrer">a</a>',
    );
    expect(await sanitizeHtml('<a href="http://example.org" target="_blank" rel="opener">a</a>')).toBe(
      '<a href="http://example.org" target="_blank" rel="noopener noreferrer">a</a>',
    );
    expect(await sanitizeHtml('<a href="mailto:ctf@example.org">m</a>')).toBe(
      '<a href="mailto:ctf@example.org" rel="noopener noreferrer">m</a>',
    );
    expect(await sanitizeHtml('<a href="/api/ctf/download/x.zip">d</a>')).toBe(
      '<a href="/api/ctf/download/x.zip" rel="noopener noreferrer">d</a>',
    );
    expect(await sanitizeHtml('<a href="x" target="top">t</a>')).toBe(
      '<a href="x" rel="noopener noreferrer">t</a>',
    );
  });

  it.each([
    ['script', '<p>a<script>alert(1)</script></p>', '<p>a</p>'],
    [
      'event handler',
      '<img src="https://e.org/x.png" onerror="alert(1)">',
      '<img src="https://e.org/x.png" />',
    ],
    ['javascript: link', '<a href="javascript:alert(1)">x</a>', '<a rel="noopener noreferrer">x</a>'],
    [
      'obfuscated javascript: link',
      '<a href="jav&#x09;ascript:alert(1)">x</a>',
      '<a rel="noopener noreferrer">x</a>',
    ],
    [
      'data: link',
      '<a href="data:text/html,<script>alert(1)</script>">x</a>',
      '<a rel="noopener noreferrer">x</a>',
    ],
    ['data: image', '<img src="data:image/png;base64,AAAA">', '<img />'],
    ['mailto: image', '<img src="mailto:a@example.org">', '<img />'],
    [
      'protocol-relative javascript',
      '<a href="  JaVaScRiPt:alert(1)">x</a>',
      '<a rel="noopener noreferrer">x</a>',
    ],
    ['textarea content', '<textarea><img src=x onerror=alert(1)></textarea><p>x</p>', '<p>x</p>'],
    ['comment', '<!-- <script>alert(1)</script> --><p>x</p>', '<p>x</p>'],
    ['target elsewhere', '<p target="_blank">x</p>', '<p>x</p>'],
    [
      'a closing tag breaking out of an attribute',
      '<a title="</a><script>alert(1)</script>">x</a>',
      '<a title="&lt;/a&gt;&lt;script&gt;alert(1)&lt;/script&gt;" rel="noopener noreferrer">x</a>',
    ],
    ['vbscript: link', '<a href="vbscript:msgbox(1)">x</a>', '<a rel="noopener noreferrer">x</a>'],
    ['style attribute', '<p style="position:fixed;top:0">x</p>', '<p>x</p>'],
    ['style element', '<style>body{display:none}</style><p>x</p>', '<p>x</p>'],
    ['class and id', '<div class="modal fixed-top" id="login">x</div>', '<div>x</div>'],
    ['iframe', '<iframe src="https://evil.example"></iframe><p>x</p>', '<p>x</p>'],
    ['form', '<form action="https://evil.example"><input name="p"><button>go</button></form>', 'go'],
    ['svg', '<svg><script>alert(1)</script><circle r="1"/></svg><p>x</p>', '<p>x</p>'],
    ['svg with onload', '<svg onload="alert(1)"></svg>', ''],
    ['math', '<math><mi>x</mi></math>', ''],
    ['object and embed', '<object data="x.swf"></object><embed src="x.swf">', ''],
    ['meta refresh', '<meta http-equiv="refresh" content="0;url=https://evil.example">', ''],
    ['base', '<base href="https://evil.example/">', ''],
    ['data attributes', '<p data-x="1">x</p>', '<p>x</p>'],
  ])('strips %s', async (_what, dirty, clean) => {
    expect(await sanitizeHtml(dirty)).toBe(clean);
  });

  it('drops the source of an image that points at the API, however it is spelt', async () => {
    for (const src of [
      '/api/auth/logout',
      '/api/admin/ctf/force_update',
      '/api/admin/ctf/export',
      'api/auth/logout',
      '../api/auth/logout',
      '/x/../api/auth/logout',
      '/API/auth/logout',
      '/%61pi/auth/logout',
      '/&#97;pi/auth/logout',
      '\\api\\auth\\logout',
      ' /api/auth/logout',
      '/a&#9;pi/auth/logout',
      '//localhost:3000/api/auth/logout',
      'https://ctf.example.org/api/admin/ctf/force_update',
      '/api',
    ]) {
      expect(await sanitizeHtml(`<img src="${src}" alt="x" />`), src).toBe('<img alt="x" />');
    }
    // Through Markdown as the report wrote it.
    expect(await renderMarkdown('![](/api/auth/logout)')).toBe('<p><img alt="" /></p>');
    // Other images stay, the site's own non-API paths too.
    for (const src of [
      'https://example.org/x.png',
      '/logo.png',
      '/apix/y.png',
      'https://example.org/apis/x.png',
    ])
      expect(await sanitizeHtml(`<img src="${src}" />`)).toBe(`<img src="${src}" />`);
  });

  it('leaves plain text as it is and an empty description empty', async () => {
    expect(await sanitizeHtml('Just text & more')).toBe('Just text & more');
    expect(await sanitizeHtml('a < b && c')).toBe('a &lt; b &amp;&amp; c');
    expect(await sanitizeHtml('&lt;script&gt; stays text')).toBe('&lt;script&gt; stays text');
    expect(await sanitizeHtml('')).toBe('');
  });
});
