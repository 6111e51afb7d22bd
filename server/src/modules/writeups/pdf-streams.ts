import { PdfScan } from '@ctf/contract';
import { constants, inflateSync } from 'node:zlib';

// A PDF may keep its objects (and so a /JavaScript action) inside compressed object streams, out
// of sight of a scan of its bytes (which skips stream data: an image's bytes would spell a name by
// chance). Each object stream is inflated, within a budget, and scanned like the file itself.

/** At most this much is inflated from one PDF in all (a writeup is at most 5 MB). */
export const PDF_INFLATE_BUDGET = 32 * 1024 * 1024;
/** At most this many object streams are opened (a real writeup has a few). */
const MAX_STREAMS = 10_000;
/** How far before a stream its dictionary is looked for. */
const DICTIONARY_REACH = 1024;

const STREAM = Buffer.from('stream');
const END_STREAM = Buffer.from('endstream');

/** Whether the dictionary before a stream names it an object stream (/Type /ObjStm, escapes decoded). */
function isObjectStream(pdf: Buffer, at: number): boolean {
  const before = pdf.subarray(Math.max(0, at - DICTIONARY_REACH), at).toString('latin1');
  const dictionary = before.slice(before.lastIndexOf('<<', before.lastIndexOf('>>')));
  const decoded = dictionary.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) =>
    String.fromCharCode(parseInt(hex, 16)),
  );
  return /\/ObjStm(?![^\s()<>[\]{}/%])/.test(decoded);
}

/** The problem found inside the PDF's object streams, or null. */
export function pdfStreamsProblem(pdf: Buffer): string | null {
  let budget = PDF_INFLATE_BUDGET;
  let streams = 0;
  for (let at = pdf.indexOf(STREAM); at !== -1; at = pdf.indexOf(STREAM, at + 1)) {
    // "endstream" contains "stream": only a keyword that starts a stream counts.
    if (at >= 3 && pdf.subarray(at - 3, at).toString('latin1') === 'end') continue;
    let start = at + STREAM.length;
    if (pdf[start] === 0x0d) start += 1;
    if (pdf[start] !== 0x0a) continue;
    start += 1;
    const end = pdf.indexOf(END_STREAM, start);
    if (end === -1) break;
    if (!isObjectStream(pdf, at)) {
      at = end;
      continue;
    }
    if (++streams > MAX_STREAMS) return 'The PDF has too many object streams to check: refused.';
    let inflated: Buffer;
    try {
      inflated = inflateSync(pdf.subarray(start, end), {
        maxOutputLength: Math.max(1, budget),
        finishFlush: constants.Z_SYNC_FLUSH,
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        return `The PDF unpacks to more than ${PDF_INFLATE_BUDGET / (1024 * 1024)} MB: refused.`;
      // Objects this check cannot read could hold anything: refused (writers use Flate).
      return 'The PDF keeps objects in a stream this check cannot unpack: save it again (print to PDF), or hand in a link.';
    }
    budget -= inflated.length;
    const scan = new PdfScan();
    const problem = scan.push(inflated) ?? scan.finish();
    if (problem) return problem;
    at = end;
  }
  return null;
}
