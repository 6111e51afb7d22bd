import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.js';

describe('renderMarkdown', () => {
  it('renders Markdown: headings, emphasis, lists, code, links, tables', async () => {
    const html = await renderMarkdown(
      '# Start\n\n**Now** and _then_\n\n- one\n- two\n\n`nc host 2530`\n\n[rules](https://example.org/rules)\n\n| a | b |\n|---|---|\n| 1 | 2 |',
    );
    expect(html).toContain('<h1>Start</h1>');
    expect(html).toContain('<strong>Now</strong>');
    expect(html).toContain('<em>then</em>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<code>nc host 2530</code>');
    expect(html).toContain('<a href="https://example.org/rules" rel="noopener noreferrer">rules</a>');
    expect(html).toContain('<td>2</td>');
  });

  it('leaves nothing that runs: raw <script>, event handlers, javascript: links and images', async () => {
    const html = await renderMarkdown(
      [
        '<script>alert(1)</script>',
        '<img src=x onerror="alert(2)">',
        '[click](javascript:alert(3))',
        '<a href="javascript:alert(4)">raw</a>',
        '![img](javascript:alert(5))',
        '<iframe src="https://evil.example"></iframe>',
        '<p style="position:fixed" onclick="alert(6)">styled</p>',
      ].join('\n\n'),
    );
    expect(html).not.toMatch(/<script|onerror|onclick|javascript:|<iframe|style=/i);
    expect(html).toContain('click');
    expect(html).toContain('styled');
  });

  it('answers an empty string for empty input', async () => {
    expect(await renderMarkdown('')).toBe('');
  });
});
