import { pdfFindingMessage } from '@ctf/contract';
import { describe, expect, it } from 'vitest';
import { deflateSync } from 'node:zlib';
import { PDF_INFLATE_BUDGET, pdfStreamsProblem } from './pdf-streams.js';

const stream = (dictionary: string, data: Buffer) =>
  Buffer.concat([
    Buffer.from(`1 0 obj << ${dictionary} >>\nstream\n`),
    data,
    Buffer.from('\nendstream\nendobj\n'),
  ]);
const pdf = (...parts: Buffer[]) =>
  Buffer.concat([Buffer.from('%PDF-1.5\n'), ...parts, Buffer.from('%%EOF\n')]);

describe('the objects a PDF keeps in compressed streams', () => {
  it('refuses a JavaScript or launch action inside an object stream, its type escaped or not', () => {
    for (const type of ['/Type /ObjStm', '/Type /Obj#53tm'])
      expect(
        pdfStreamsProblem(
          pdf(stream(`${type} /Filter /FlateDecode`, deflateSync('<< /S /JavaScript /JS 2 0 R >>'))),
        ),
      ).toBe(pdfFindingMessage('JavaScript (/JavaScript)'));
    expect(
      pdfStreamsProblem(pdf(stream('/Type /ObjStm /Filter /FlateDecode', deflateSync('<< /S /Launch >>')))),
    ).toBe(pdfFindingMessage('a launch action (/Launch)'));
  });

  it('accepts object streams without actions, and other streams whatever their bytes spell', () => {
    expect(
      pdfStreamsProblem(pdf(stream('/Type /ObjStm /Filter /FlateDecode', deflateSync('<< /Type /Page >>')))),
    ).toBeNull();
    // A page's text or an image may spell "/JS " by chance: only object streams hold objects.
    expect(
      pdfStreamsProblem(pdf(stream('/Filter /FlateDecode', deflateSync('BT (/JS /Launch) Tj ET')))),
    ).toBeNull();
  });

  it('refuses an object stream it cannot unpack, and one past the inflate budget', () => {
    expect(
      pdfStreamsProblem(pdf(stream('/Type /ObjStm /Filter /LZWDecode', Buffer.from('not flate')))),
    ).toMatch(/cannot unpack/);
    const bomb = deflateSync(Buffer.alloc(PDF_INFLATE_BUDGET + 1024, 0x20));
    expect(pdfStreamsProblem(pdf(stream('/Type /ObjStm /Filter /FlateDecode', bomb)))).toMatch(
      /unpacks to more than 32 MB/,
    );
  });
});
