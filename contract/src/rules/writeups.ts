/**
 * Writeups (issue 32): the pure checks of what a competitor hands in, shared by the server (which
 * enforces them) and the web (which says them before a request). A file is judged by its content,
 * never by its name or its declared type alone; docs/decisions/0013-after-the-event.md.
 */
import { WRITEUP_MAX_BYTES, WRITEUP_NAME_MAX_LENGTH, WRITEUP_URL_MAX_LENGTH } from './constants.js';
import { MESSAGES } from './messages.js';
import { MarkdownScan, PdfScan } from './writeup-scan.js';

export type WriteupFileKind = 'pdf' | 'markdown';
/** The media type a stored writeup file is served as (Markdown as plain text: never rendered HTML). */
export const WRITEUP_CONTENT_TYPES: Record<WriteupFileKind, string> = {
  pdf: 'application/pdf',
  markdown: 'text/markdown',
};

/** The problem with a writeup link, or null: an absolute https URL with a host, not too long. */
export function writeupUrlProblem(raw: string): string | null {
  const url = raw.trim();
  if (url.length > WRITEUP_URL_MAX_LENGTH) return MESSAGES.writeupLinkTooLong;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return MESSAGES.writeupLinkNotHttps;
  }
  if (parsed.protocol !== 'https:' || parsed.hostname === '' || parsed.username || parsed.password)
    return MESSAGES.writeupLinkNotHttps;
  return null;
}

/** The kind a file name claims (.pdf; .md or .markdown), or null for any other name. */
export function writeupKindOfName(name: string): WriteupFileKind | null {
  const lower = name.trim().toLowerCase();
  if (lower.endsWith('.pdf')) return 'pdf';
  if (lower.endsWith('.md') || lower.endsWith('.markdown')) return 'markdown';
  return null;
}

/** What a Markdown file must not start with (after white space and a BOM): an HTML or SVG document. */
const HTML_SIGNATURES = ['<!doctype', '<html', '<script', '<svg', '<?xml'];
const PDF_SIGNATURE = '%PDF-';

/**
 * Checks a writeup file's bytes as they stream in (never the whole file at once): push each chunk,
 * then finish(). A problem stops the check at once (the caller stops reading); past
 * WRITEUP_MAX_BYTES it reports the size.
 */
export class WriteupContentCheck {
  private size = 0;
  private head = '';
  private headDone = false;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  /** The whole file is read for what it must not contain anywhere (writeup-scan.ts). */
  private readonly markdown = new MarkdownScan();
  private readonly pdf = new PdfScan();
  problem: string | null = null;

  constructor(readonly kind: WriteupFileKind) {}

  /** Feeds the next chunk; answers the problem found so far (null: fine so far). */
  push(chunk: Uint8Array): string | null {
    if (this.problem) return this.problem;
    this.size += chunk.length;
    if (this.size > WRITEUP_MAX_BYTES) return (this.problem = MESSAGES.writeupFileTooLarge);
    if (this.kind === 'markdown') {
      if (chunk.includes(0)) return (this.problem = MESSAGES.writeupMarkdownNotText);
      let text: string;
      try {
        text = this.decoder.decode(chunk, { stream: true });
      } catch {
        return (this.problem = MESSAGES.writeupMarkdownNotText);
      }
      if (!this.headDone) this.checkHead(text);
      if (!this.problem) this.problem = this.markdown.push(text);
    } else {
      if (!this.headDone) {
        this.head += String.fromCharCode(...chunk.subarray(0, PDF_SIGNATURE.length - this.head.length));
        if (this.head.length >= PDF_SIGNATURE.length) {
          this.headDone = true;
          if (this.head !== PDF_SIGNATURE) this.problem = MESSAGES.writeupNotPdf;
        }
      }
      if (!this.problem) this.problem = this.pdf.push(chunk);
    }
    return this.problem;
  }

  private checkHead(text: string): void {
    this.head += text;
    const start = this.head.replace(/^[\uFEFF\s]+/, '').toLowerCase();
    if (start.length === 0) return;
    if (HTML_SIGNATURES.some((sig) => start.startsWith(sig))) {
      this.problem = MESSAGES.writeupMarkdownIsHtml;
      this.headDone = true;
      return;
    }
    // Decided once the text is longer than the longest signature, or cannot become one.
    if (start.length >= 9 || !HTML_SIGNATURES.some((sig) => sig.startsWith(start))) this.headDone = true;
  }

  /** After the last chunk: the file's problem, or null when it is accepted. */
  finish(): string | null {
    if (this.problem) return this.problem;
    if (this.size === 0) return (this.problem = MESSAGES.writeupFileEmpty);
    if (this.kind === 'markdown') {
      try {
        this.decoder.decode();
      } catch {
        return (this.problem = MESSAGES.writeupMarkdownNotText);
      }
    } else if (!this.headDone) {
      return (this.problem = MESSAGES.writeupNotPdf);
    } else {
      return (this.problem = this.pdf.finish());
    }
    return null;
  }
}

/** Checks whole bytes at once (tests and small callers). */
export function writeupContentProblem(kind: WriteupFileKind, bytes: Uint8Array): string | null {
  const check = new WriteupContentCheck(kind);
  return check.push(bytes) ?? check.finish();
}

/**
 * A safe download name: letters, digits, dot, dash and underscore only (anything else becomes a
 * dash), no leading dot, at most WRITEUP_NAME_MAX_LENGTH characters, ending in the kind's extension.
 */
export function safeWriteupName(name: string, kind: WriteupFileKind): string {
  const ext = kind === 'pdf' ? '.pdf' : '.md';
  const base = name
    .normalize('NFKD')
    .replace(/\.(pdf|md|markdown)$/i, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '')
    .slice(0, WRITEUP_NAME_MAX_LENGTH - ext.length)
    .replace(/[.-]+$/g, '');
  return `${base || 'writeup'}${ext}`;
}

/** Whether a deadline (ISO, or null: none) still lets a writeup in at `now`. */
export function writeupsOpenAt(settings: { open: boolean; deadline: string | null }, now: Date): boolean {
  if (!settings.open) return false;
  return settings.deadline === null || now.getTime() <= Date.parse(settings.deadline);
}
