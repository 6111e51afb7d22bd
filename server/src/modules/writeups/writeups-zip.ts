import { stringify } from 'csv-stringify/sync';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import type { AppContext } from '../../context.js';
import { recordAudit, type AuditActor } from '../audit/audit.service.js';
import { listAdminWriteups, openWriteupById } from './writeups.service.js';
import { slugOf } from '../challenge-archive/archive-packing.js';

// GET /api/admin/writeups.zip: every writeup in one ZIP, built as it streams (yazl, the writer the
// challenge archive export uses): index.csv first, then each file read only when its turn comes.

const COLUMNS = [
  'challenge',
  'competitor',
  'division',
  'kind',
  'file/url',
  'submittedAt',
  'reviewed',
  'published',
];
const FIXED_TIME = new Date('2000-01-01T00:00:00Z');

/** A cell a spreadsheet would run as a formula is prefixed with a quote (CSV injection). */
function cell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** Builds the ZIP's stream and records the download in the audit log (before any byte is sent). */
export async function buildWriteupsZip(ctx: AppContext, actor: AuditActor): Promise<NodeJS.ReadableStream> {
  const writeups = await listAdminWriteups(ctx, {});
  const zip = new yazl.ZipFile();
  const rows: string[][] = [];
  const files: { id: number; path: string }[] = [];
  for (const w of writeups) {
    // Unique by the writeup's id; every part made of safe characters only.
    const ext = w.file?.type === 'application/pdf' ? '.pdf' : '.md';
    const path = w.file
      ? `${slugOf(w.challenge)}-${w.challenge_id}/${slugOf(w.competitor, 'competitor')}-${w._id}${ext}`
      : null;
    if (path) files.push({ id: Number(w._id), path });
    rows.push(
      [
        w.challenge,
        w.competitor,
        w.division ?? '',
        w.file ? 'file' : 'link',
        path ?? w.url ?? '',
        w.submittedAt,
        String(w.reviewed),
        String(w.published),
      ].map(cell),
    );
  }
  await ctx.database.transaction((trx) =>
    recordAudit(trx, {
      actor,
      action: 'writeup.export',
      target: 'writeups ZIP',
      details: { writeups: writeups.length, files: files.length },
      at: ctx.clock.now(),
    }),
  );
  zip.addBuffer(Buffer.from(stringify(rows, { header: true, columns: COLUMNS })), 'index.csv', {
    mtime: FIXED_TIME,
    mode: 0o100644,
  });
  for (const f of files) {
    zip.addReadStreamLazy(f.path, { mtime: FIXED_TIME, mode: 0o100644 }, (cb) => {
      openWriteupById(ctx, f.id).then(
        (file) => cb(null, file.open.handle.createReadStream()),
        // A file gone since the list was read is left empty rather than breaking the archive.
        () => cb(null, Readable.from([])),
      );
    });
  }
  zip.end();
  return zip.outputStream;
}
