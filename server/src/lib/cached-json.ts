import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { z } from 'zod';
import { sha256 } from './crypto.js';

/** The codings a cached answer can be sent in, best first. */
export type ContentCoding = 'br' | 'gzip' | 'identity';

/** Answers shorter than this go uncompressed: the saving would not pay for the work. */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * A JSON answer serialised once and shared by every caller, compressed at most once per coding
 * (on first demand), each representation with its own strong ETag (RFC 9110 §8.8.3: different
 * bytes, different tag). The leaderboard of a large event is ~100 kB of JSON and ~10 kB in
 * Brotli, which is what every browser asks for.
 */
export class CachedJson {
  private readonly hash: string;
  private readonly bodies = new Map<Exclude<ContentCoding, 'identity'>, Buffer>();

  constructor(readonly json: string) {
    this.hash = sha256(json);
  }

  /**
   * A value checked against its response schema once, here, instead of at every send: the schema
   * drops any field it does not declare, exactly as the per-request serialiser would.
   */
  static of<S extends z.ZodType>(schema: S, value: z.input<S>): CachedJson {
    return new CachedJson(JSON.stringify(schema.parse(value)));
  }

  /** The strong validator of the representation in this coding. */
  etag(coding: ContentCoding = 'identity'): string {
    return coding === 'identity' ? `"${this.hash}"` : `"${this.hash}-${coding}"`;
  }

  /** The representation in this coding: the JSON text itself, or compressed bytes. */
  body(coding: ContentCoding): string | Buffer {
    if (coding === 'identity') return this.json;
    let body = this.bodies.get(coding);
    if (!body) {
      const raw = Buffer.from(this.json, 'utf8');
      // zlib's output chunk, 16 kB by default, is allocated whole for every answer and left to the
      // garbage collector, which counts it late (external memory): per-player answers of a few kB,
      // compressed by the thousand when an event starts, raised peak RSS by tens of MB. A chunk
      // half the input's size holds any of them (JSON compresses 4-10x); a larger answer takes more.
      const chunkSize = Math.min(16 * 1024, Math.max(1024, raw.length >> 1));
      const compressed =
        coding === 'br'
          ? brotliCompressSync(raw, {
              chunkSize,
              params: {
                // Quality 5: within 1% of the best size for JSON at a tenth of the time (~1.5 ms per 100 kB).
                [constants.BROTLI_PARAM_QUALITY]: 5,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
              },
            })
          : gzipSync(raw, { level: 6, chunkSize });
      // NOTE: zlib hands back a view of its 16 kB output chunk; kept per user, those add up (tens
      // of MB for a thousand players), so keep an exact copy instead.
      body = Buffer.from(compressed);
      this.bodies.set(coding, body);
    }
    return body;
  }

  /** The coding to send to a caller with this Accept-Encoding (RFC 9110 §12.5.3). */
  codingFor(acceptEncoding: string | undefined): ContentCoding {
    if (!acceptEncoding || this.json.length < MIN_COMPRESSED_BYTES) return 'identity';
    const accepted = acceptedCodings(acceptEncoding);
    if (accepted.has('br')) return 'br';
    if (accepted.has('gzip')) return 'gzip';
    return 'identity';
  }
}

/** How many distinct Accept-Encoding values are remembered (browsers send a handful between them). */
const KNOWN_HEADERS_MAX = 64;
const knownHeaders = new Map<string, ReadonlySet<ContentCoding>>();

/**
 * The codings an Accept-Encoding header allows (q > 0), '*' standing for br and gzip. Every
 * request of a cached answer asks, with one of very few distinct values: each is parsed once.
 */
export function acceptedCodings(header: string): ReadonlySet<ContentCoding> {
  let codings = knownHeaders.get(header);
  if (!codings) {
    codings = parseAcceptEncoding(header);
    if (knownHeaders.size >= KNOWN_HEADERS_MAX) knownHeaders.clear();
    knownHeaders.set(header, codings);
  }
  return codings;
}

function parseAcceptEncoding(header: string): Set<ContentCoding> {
  const named = new Map<string, number>();
  for (const part of header.split(',')) {
    const [token = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!token) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    named.set(token, Number.isFinite(q) ? q : 0);
  }
  const result = new Set<ContentCoding>();
  for (const coding of ['br', 'gzip'] as const) {
    const q =
      named.get(coding) ?? (coding === 'gzip' ? named.get('x-gzip') : undefined) ?? named.get('*') ?? 0;
    if (q > 0) result.add(coding);
  }
  return result;
}
