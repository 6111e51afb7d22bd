import { describe, expect, it } from 'vitest';
import { MarkdownScan, PdfScan, markdownFindingMessage, pdfFindingMessage } from './writeup-scan.js';
import { writeupContentProblem } from './writeups.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** Feeds text in chunks of `size` (so findings cut between chunks are tried). */
function markdownIn(text: string, size: number): string | null {
  const scan = new MarkdownScan();
  for (let i = 0; i < text.length; i += size) {
    const problem = scan.push(text.slice(i, i + size));
    if (problem) return problem;
  }
  return null;
}
function pdfIn(text: string, size: number): string | null {
  const scan = new PdfScan();
  for (let i = 0; i < text.length; i += size) {
    const problem = scan.push(latin1(text.slice(i, i + size)));
    if (problem) return problem;
  }
  return scan.finish();
}

describe('writeup files checked whole', () => {
  it('refuses a Markdown writeup with an HTML document or a script anywhere, naming it and its line', () => {
    const cases: [string, string, number][] = [
      ['# Notes\n\n<!-- x --><html><script>alert(1)</script>', 'an HTML document (<html>)', 3],
      ['# A\n\nText\n\n```html\n<SCRIPT src=x></script>\n```', 'a script (<script>)', 6],
      ['ok\n<img src=x onerror="alert(1)">', 'a script (an on… event attribute)', 2],
      ['[click](javascript:alert(1))', 'a script (a javascript: link)', 1],
      ['x\n<iframe src="https://e.org"></iframe>', 'an embedded document (<iframe>, <object> or <embed>)', 2],
      ['x\n\n<svg onload=1>', 'an SVG document (<svg>)', 3],
    ];
    for (const [text, what, line] of cases) {
      for (const size of [1, 3, 7, 1000])
        expect(markdownIn(text, size), `${text} / ${size}`).toBe(markdownFindingMessage(what, line));
      expect(writeupContentProblem('markdown', bytes(text))).not.toBeNull();
    }
    // Far into a large file too: the whole file is read.
    const late = `${'plain words\n'.repeat(50_000)}<script>x</script>`;
    expect(writeupContentProblem('markdown', bytes(late))).toBe(
      markdownFindingMessage('a script (<script>)', 50_001),
    );
  });

  it('accepts Markdown with ordinary inline HTML and prose about JavaScript', () => {
    for (const text of [
      '# JavaScript: closures\n\nUse <br> and <details><summary>hint</summary>x</details>.',
      'The `onclick` handler and a <b>bold</b> word; a one=1 attribute-like word.',
      'Script kiddies, scripting, and <scripted> tags.',
    ])
      expect(writeupContentProblem('markdown', bytes(text)), text).toBeNull();
  });

  it('refuses a PDF with JavaScript or a launch action, escaped names and split chunks included', () => {
    const cases: [string, string][] = [
      [
        '%PDF-1.4\n1 0 obj << /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj',
        'JavaScript (/JavaScript)',
      ],
      ['%PDF-1.4\n1 0 obj << /AA << /O << /JS 5 0 R >> >> >> endobj', 'JavaScript (/JS)'],
      ['%PDF-1.4\n1 0 obj << /S /Launch /F (calc.exe) >> endobj', 'a launch action (/Launch)'],
      ['%PDF-1.4\n1 0 obj << /S /J#61vaScript >> endobj', 'JavaScript (/JavaScript)'],
      ['%PDF-1.4\n1 0 obj << /S /Launch', 'a launch action (/Launch)'],
    ];
    for (const [text, what] of cases) {
      for (const size of [1, 4, 9, 1000])
        expect(pdfIn(text, size), `${text} / ${size}`).toBe(pdfFindingMessage(what));
      expect(writeupContentProblem('pdf', latin1(text))).toBe(pdfFindingMessage(what));
    }
  });

  it("skips a stream's data: binary bytes that spell a name by chance are no action", () => {
    const text =
      '%PDF-1.4\n4 0 obj << /Length 12 /Subtype /Image >>\nstream\nxx/JS /Launch\nendstream\nendobj\n%%EOF\n';
    for (const size of [1, 3, 8, 1000]) expect(pdfIn(text, size), String(size)).toBeNull();
    // What follows the stream is read again.
    const after = `${text}5 0 obj << /S /JavaScript >> endobj\n`;
    for (const size of [1, 3, 8, 1000])
      expect(pdfIn(after, size), String(size)).toBe(pdfFindingMessage('JavaScript (/JavaScript)'));
  });

  it('accepts a PDF whose /OpenAction only opens a page, and names that merely start like a refused one', () => {
    for (const text of [
      '%PDF-1.4\n1 0 obj << /Type /Catalog /OpenAction [3 0 R /Fit] >> endobj\n%%EOF\n',
      '%PDF-1.4\n1 0 obj << /JSON 1 /Launcher 2 /JavaScripts 3 >> endobj\n%%EOF\n',
    ])
      for (const size of [1, 5, 1000]) expect(pdfIn(text, size), text).toBeNull();
  });
});
