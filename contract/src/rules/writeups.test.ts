import { describe, expect, it } from 'vitest';
import { WRITEUP_MAX_BYTES } from './constants.js';
import { MESSAGES } from './messages.js';
import {
  WriteupContentCheck,
  safeWriteupName,
  writeupContentProblem,
  writeupKindOfName,
  writeupUrlProblem,
  writeupsOpenAt,
} from './writeups.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('writeup rules (issue 32)', () => {
  it('takes https links only, of a sane length', () => {
    expect(writeupUrlProblem('https://example.org/my-writeup')).toBeNull();
    expect(writeupUrlProblem('  https://example.org/x  ')).toBeNull();
    for (const bad of [
      'http://example.org',
      'javascript:alert(1)',
      'data:text/html,x',
      'example.org',
      '',
      'https://user:pw@example.org/',
    ])
      expect(writeupUrlProblem(bad), bad).toBe(MESSAGES.writeupLinkNotHttps);
    expect(writeupUrlProblem(`https://e.org/${'a'.repeat(2000)}`)).toBe(MESSAGES.writeupLinkTooLong);
  });

  it('knows a kind by name only as a first step', () => {
    expect(writeupKindOfName('A.PDF')).toBe('pdf');
    expect(writeupKindOfName('notes.md')).toBe('markdown');
    expect(writeupKindOfName('notes.markdown')).toBe('markdown');
    for (const name of ['x.html', 'x.pdf.html', 'x.svg', 'x', 'md'])
      expect(writeupKindOfName(name), name).toBeNull();
  });

  it('judges the content: a PDF signature, UTF-8 Markdown without NUL or an HTML document start', () => {
    expect(writeupContentProblem('pdf', bytes('%PDF-1.7\n'))).toBeNull();
    expect(writeupContentProblem('pdf', bytes('<html>%PDF-'))).toBe(MESSAGES.writeupNotPdf);
    expect(writeupContentProblem('pdf', bytes('%PD'))).toBe(MESSAGES.writeupNotPdf);
    expect(
      writeupContentProblem('markdown', bytes('# Title\n\nSome <b>inline</b> HTML is Markdown.')),
    ).toBeNull();
    expect(writeupContentProblem('markdown', bytes('<!-- comment -->\n# x'))).toBeNull();
    for (const start of [
      '<!DOCTYPE html>',
      '\uFEFF <html>',
      '\n\n<script>x</script>',
      '<svg/>',
      '<?xml version="1.0"?>',
    ])
      expect(writeupContentProblem('markdown', bytes(start)), start).toBe(MESSAGES.writeupMarkdownIsHtml);
    expect(writeupContentProblem('markdown', new Uint8Array([0x41, 0x00]))).toBe(
      MESSAGES.writeupMarkdownNotText,
    );
    expect(writeupContentProblem('markdown', new Uint8Array([0x41, 0xff]))).toBe(
      MESSAGES.writeupMarkdownNotText,
    );
    expect(writeupContentProblem('markdown', new Uint8Array([]))).toBe(MESSAGES.writeupFileEmpty);
  });

  it('checks as it streams: a signature split across chunks, a character split across chunks, the size limit', () => {
    const html = new WriteupContentCheck('markdown');
    expect(html.push(bytes('  <scr'))).toBeNull();
    expect(html.push(bytes('ipt>'))).toBe(MESSAGES.writeupMarkdownIsHtml);
    const split = new WriteupContentCheck('markdown');
    const e = bytes('é');
    expect(split.push(new Uint8Array([0x23, e[0]!]))).toBeNull();
    expect(split.push(new Uint8Array([e[1]!]))).toBeNull();
    expect(split.finish()).toBeNull();
    const cut = new WriteupContentCheck('markdown');
    cut.push(new Uint8Array([0x23, e[0]!]));
    expect(cut.finish()).toBe(MESSAGES.writeupMarkdownNotText);
    const pdf = new WriteupContentCheck('pdf');
    expect(pdf.push(bytes('%P'))).toBeNull();
    expect(pdf.push(bytes('DF-1'))).toBeNull();
    const big = new WriteupContentCheck('markdown');
    expect(big.push(new Uint8Array(WRITEUP_MAX_BYTES).fill(0x61))).toBeNull();
    expect(big.push(bytes('a'))).toBe(MESSAGES.writeupFileTooLarge);
  });

  it('makes safe download names', () => {
    expect(safeWriteupName('My Writeup (final).md', 'markdown')).toBe('My-Writeup-final.md');
    expect(safeWriteupName('../../etc/passwd.pdf', 'pdf')).toBe('etc-passwd.pdf');
    expect(safeWriteupName('"><img src=x>.markdown', 'markdown')).toBe('img-src-x.md');
    expect(safeWriteupName('...', 'pdf')).toBe('writeup.pdf');
    expect(safeWriteupName(`${'a'.repeat(300)}.pdf`, 'pdf')).toHaveLength(100);
  });

  it('is open only when open and not past the deadline', () => {
    const now = new Date('2025-10-20T00:00:00Z');
    expect(writeupsOpenAt({ open: false, deadline: null }, now)).toBe(false);
    expect(writeupsOpenAt({ open: true, deadline: null }, now)).toBe(true);
    expect(writeupsOpenAt({ open: true, deadline: '2025-10-20T00:00:00.000Z' }, now)).toBe(true);
    expect(writeupsOpenAt({ open: true, deadline: '2025-10-19T23:59:59.000Z' }, now)).toBe(false);
  });
});
