import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.js';

describe('renderMarkdown', () => {
  it('renders Markdown to HTML', async () => {
    const html = await renderMarkdown('Try **base64** and `strings`:\n\n- one\n- two');
    expect(html).toContain('<strong>base64</strong>');
    expect(html).toContain('<code>strings</code>');
    expect(html).toContain('<li>one</li>');
  });

  it('drops scripts, handlers and javascript: links that raw HTML in Markdown carries', async () => {
    const html = await renderMarkdown(
      'Hi <script>alert(1)</script><img src=x onerror="alert(2)"> [x](javascript:alert(3))',
    );
    expect(html).not.toMatch(/<script|onerror|javascript:/i);
  });

  it('answers an empty string for blank input', async () => {
    expect(await renderMarkdown('  \n')).toBe('');
  });
});
