/**
 * Writeup files checked whole (docs/decisions/0014-least-privilege.md): the site never renders a
 * writeup, but the writeups ZIP and the event archive carry them to places that might. So a
 * Markdown writeup with an HTML document or a script anywhere, and a PDF with JavaScript or a
 * launch action, are refused with the reason. Both scanners take the bytes chunk by chunk (a
 * little of the previous chunk is kept, so a word cut between chunks is still found): linear time,
 * constant memory.
 */

/** What a Markdown writeup may not contain anywhere (lower case), and how a refusal names it. */
const MARKDOWN_FINDINGS: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /<!doctype\b/, what: 'an HTML document (<!DOCTYPE)' },
  { pattern: /<html[\s>/]/, what: 'an HTML document (<html>)' },
  { pattern: /<\?xml\b/, what: 'an XML document (<?xml)' },
  { pattern: /<svg[\s>/]/, what: 'an SVG document (<svg>)' },
  { pattern: /<script[\s>/]/, what: 'a script (<script>)' },
  { pattern: /<(?:iframe|object|embed)[\s>/]/, what: 'an embedded document (<iframe>, <object> or <embed>)' },
  { pattern: /<[a-z][a-z0-9-]*\s[^<>]{0,200}?\bon[a-z]+\s*=/, what: 'a script (an on… event attribute)' },
  { pattern: /(?:\]\(|<|=\s*["']?)\s*javascript\s*:/, what: 'a script (a javascript: link)' },
];
/** Longest text a finding spans across a chunk boundary. */
const MARKDOWN_TAIL = 256;

export function markdownFindingMessage(what: string, line: number): string {
  return `The Markdown file contains ${what} on line ${line}: a writeup may not carry an HTML document or a script, not even in a code block. Write < as &lt; there, or hand in a link.`;
}

/** Scans decoded Markdown text as it streams; answers the first refusal found. */
export class MarkdownScan {
  private tail = '';
  /** Lines before the start of `tail`. */
  private linesBefore = 0;

  push(text: string): string | null {
    const window = this.tail + text.toLowerCase();
    let first: { index: number; what: string } | null = null;
    for (const f of MARKDOWN_FINDINGS) {
      const m = f.pattern.exec(window);
      if (m && (first === null || m.index < first.index)) first = { index: m.index, what: f.what };
    }
    if (first)
      return markdownFindingMessage(first.what, this.linesBefore + 1 + countLines(window, first.index));
    const keep = Math.min(MARKDOWN_TAIL, window.length);
    this.linesBefore += countLines(window, window.length - keep);
    this.tail = window.slice(window.length - keep);
    return null;
  }
}

function countLines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n += 1;
  return n;
}

/**
 * PDF names that run code or programs: JavaScript actions (/JavaScript, /JS, also what an
 * /OpenAction or /AA runs) and launch actions (/Launch). An /OpenAction that only opens a page is
 * harmless and stays allowed: one that runs a script names /JavaScript or /JS.
 */
const PDF_REFUSED_NAMES: Readonly<Record<string, string>> = {
  JavaScript: 'JavaScript (/JavaScript)',
  JS: 'JavaScript (/JS)',
  Launch: 'a launch action (/Launch)',
};
/** A name longer than this is none of the above. */
const PDF_TAIL = 128;
const PDF_DELIMITER = /[\s()<>[\]{}/%]/;

export function pdfFindingMessage(what: string): string {
  return `The PDF contains ${what}: a writeup may not run scripts or programs. Save it again without them (print to PDF), or hand in a link.`;
}

/** A PDF name as written, with its #xx escapes decoded (/J#61vaScript is /JavaScript). */
function decodeName(raw: string): string {
  return raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A stream's data starts after its dictionary, the keyword and its end of line. */
const STREAM_START = />>\s*stream\r?\n/g;
/** A name and the delimiter after it (not consumed). */
const NAME = /\/([^\s()<>[\]{}/%]+)(?=[\s()<>[\]{}/%])/g;
/** Kept between chunks at least, so a dictionary's end and the keyword are seen whole. */
const STREAM_START_TAIL = 32;
const STREAM_END = 'endstream';

/**
 * Scans PDF syntax (the file as it streams, or an inflated object stream's objects) for refused
 * names. The data of a stream (an image, a font, compressed objects) is skipped: binary bytes
 * would spell "/JS " by chance in about one large PDF of fifty; the server inflates object
 * streams, where objects may hide, and scans them apart (server: writeups/pdf-streams.ts).
 */
export class PdfScan {
  private tail = '';
  private inStream = false;

  push(chunk: Uint8Array): string | null {
    const window = this.tail + latin1(chunk);
    // Positions, not slices: the window is walked once, however many streams it holds.
    let pos = 0;
    for (;;) {
      if (this.inStream) {
        const end = window.indexOf(STREAM_END, pos);
        if (end === -1) {
          this.tail = window.slice(Math.max(pos, window.length - (STREAM_END.length - 1)));
          return null;
        }
        this.inStream = false;
        pos = end + STREAM_END.length;
        continue;
      }
      STREAM_START.lastIndex = pos;
      const start = STREAM_START.exec(window);
      if (start) {
        const problem = this.scan(window, pos, start.index);
        if (problem) return problem;
        this.inStream = true;
        pos = start.index + start[0].length;
        continue;
      }
      // Names are read up to the last delimiter; what follows may continue in the next chunk.
      let end = window.length;
      while (end > pos && !PDF_DELIMITER.test(window[end - 1]!)) end -= 1;
      const problem = this.scan(window, pos, end);
      const rest = window.slice(Math.max(pos, Math.min(end - 1, window.length - STREAM_START_TAIL)));
      this.tail = rest.length > PDF_TAIL ? rest.slice(-STREAM_START_TAIL) : rest;
      return problem;
    }
  }

  /** After the last chunk: the names left in the tail. */
  finish(): string | null {
    const text = `${this.tail} `;
    const problem = this.inStream ? null : this.scan(text, 0, text.length);
    this.tail = '';
    return problem;
  }

  /**
   * The refused names that end inside [from, to) (a name ending at `to` needs the delimiter there:
   * a stream's keyword, the chunk's last delimiter, or finish's added space).
   */
  private scan(text: string, from: number, to: number): string | null {
    NAME.lastIndex = from;
    for (let m = NAME.exec(text); m !== null && m.index < to; m = NAME.exec(text)) {
      if (m.index + m[0].length > to) break;
      const what = PDF_REFUSED_NAMES[decodeName(m[1]!)];
      if (what) return pdfFindingMessage(what);
    }
    return null;
  }
}

/**
 * Bytes as text, one character a byte ('latin1' is windows-1252 to a TextDecoder: the names and
 * delimiters looked for are ASCII either way). Far faster than building the string by hand.
 */
const SINGLE_BYTE = new TextDecoder('latin1');
function latin1(bytes: Uint8Array): string {
  return SINGLE_BYTE.decode(bytes);
}
