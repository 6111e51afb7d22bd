import { crc32 } from 'node:zlib';

/** One entry of a ZIP written byte by byte. */
export interface ZipEntry {
  name: string;
  /** The bytes as stored: already deflated when `method` is 8. */
  data: Buffer;
  /** 0 stored (the default), 8 deflated. */
  method?: 0 | 8;
  /** The uncompressed size the headers state (default: data's length, right for stored entries). */
  size?: number;
  /** The CRC-32 the headers state (default: data's, right for stored entries). */
  crc?: number;
  /** Unix mode in the high half of the external attributes (default a plain file; symlinks 0o120777). */
  mode?: number;
}

/**
 * A ZIP written byte by byte, its headers saying exactly what the entries say: valid archives for
 * seeded challenge files, and hostile ones (lying sizes, symlinks, traversal names) for the tests
 * that show they are refused. The site's own exports stream through yazl instead.
 */
export function writeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const method = e.method ?? 0;
    const size = e.size ?? e.data.length;
    const crc = e.crc ?? crc32(e.data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((e.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    centrals.push(central, name);
    offset += 30 + name.length + e.data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

/** A valid ZIP with stored (uncompressed) entries, for seeded challenge files. */
export function makeZip(entries: { name: string; content: string | Buffer }[]): Buffer {
  return writeZip(
    entries.map((e) => ({
      name: e.name,
      data: Buffer.isBuffer(e.content) ? e.content : Buffer.from(e.content),
    })),
  );
}
