import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { z } from 'zod';
import { sha256 } from './crypto.js';

/** The codings a cached answer can be sent in, best first. */
export type ContentCoding = 'br' | 'gzip' | 'identity';

/** Answers shorter than this go uncompressed: the saving would not pay for the work. */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * How many bodies in a coding an answer sends fast-compressed before it is compressed well. A shared
 * answer that a correct flag replaces (the challenge list, the board's first page) is sent once
 * or twice in its life while an event starts, so it is not worth the slow, tight compression: the
 * list of the bench's event is 3.5 kB in Brotli quality 2 (~0.15 ms) and 3.2 kB in quality 5
 * (~0.5 ms). An answer that stays is sent thousands of times, and compressed well at its third send.
 */
export const FAST_SENDS = 2;

type Compressed = Exclude<ContentCoding, 'identity'>;
type Tier = 'fast' | 'good';

/** One representation of an answer: its strong ETag, and its bytes, made on demand. */
export interface Representation {
  etag: string;
  /**
   * The tags a caller may hold for this content in this coding: this one, and (compressed) the
   * other compression's, whose bytes decode to the same JSON. A revalidation with either is a 304.
   */
  validators: readonly string[];
  body(): string | Buffer;
}

/**
 * A JSON answer serialised once and shared by every caller, compressed on first demand at most
 * twice per coding (fast for its first FAST_SENDS bodies, then well), each representation with its
 * own strong ETag (RFC 9110 §8.8.3: different bytes, different tag). The leaderboard of a large event is ~100 kB of JSON and ~10 kB in
 * Brotli, which is what every browser asks for.
 */
export class CachedJson {
  private readonly hash: string;
  /**
   * The JSON as it is kept: a short answer (under MIN_COMPRESSED_BYTES, sent uncompressed to
   * every caller) as its UTF-8 bytes, which go to the socket as they are (a text is encoded again
   * at every send, ~4 µs a request for a player's own answers); a longer one as text, compressed
   * for nearly every caller. One form or the other, never both: per-player answers are kept by
   * the thousand.
   */
  private readonly bytes: Buffer | null;
  private readonly text: string | null;
  /** The JSON text's length in UTF-16 code units (what codingFor compares). */
  private readonly length: number;
  private readonly bodies = new Map<Compressed, Buffer>();
  private readonly fastBodies = new Map<Compressed, Buffer>();
  private readonly fastSends = new Map<Compressed, number>();
  /** The representations, each made once: every send asks for one. */
  private identity: Representation | null = null;
  private readonly compressedRepresentations = new Map<`${Compressed}-${Tier}`, Representation>();

  constructor(json: string) {
    this.hash = sha256(json);
    this.length = json.length;
    const short = json.length < MIN_COMPRESSED_BYTES;
    this.bytes = short ? ownBytes(Buffer.from(json, 'utf8')) : null;
    this.text = short ? null : json;
  }

  /** The JSON text (a page composing several answers into one reads it). */
  get json(): string {
    return this.text ?? this.bytes!.toString('utf8');
  }

  /** The uncompressed body as it is kept: bytes for a short answer, text for a long one. */
  private get plain(): string | Buffer {
    return this.bytes ?? this.text!;
  }

  /**
   * A value checked against its response schema once, here, instead of at every send: the schema
   * drops any field it does not declare, exactly as the per-request serialiser would.
   */
  static of<S extends z.ZodType>(schema: S, value: z.input<S>): CachedJson {
    return new CachedJson(JSON.stringify(schema.parse(value)));
  }

  /** The strong validator of the representation in this coding (well compressed). */
  etag(coding: ContentCoding = 'identity'): string {
    return coding === 'identity' ? `"${this.hash}"` : this.tagOf(coding, 'good');
  }

  /** The representation in this coding: the JSON text itself, or compressed bytes (well). */
  body(coding: ContentCoding): string | Buffer {
    return coding === 'identity' ? this.plain : this.compressed(coding, 'good');
  }

  /**
   * What a caller in this coding gets now: its first FAST_SENDS bodies fast-compressed, then well
   * compressed (each with its own ETag: different bytes). A revalidation (304) sends no body and
   * counts for nothing; one with the fast ETag after the switch is still a 304 (same content).
   */
  representation(coding: ContentCoding): Representation {
    if (coding === 'identity') {
      if (!this.identity) {
        const etag = `"${this.hash}"`;
        const plain = this.plain;
        this.identity = { etag, validators: [etag], body: () => plain };
      }
      return this.identity;
    }
    const tier: Tier =
      this.bodies.has(coding) || (this.fastSends.get(coding) ?? 0) >= FAST_SENDS ? 'good' : 'fast';
    const key = `${coding}-${tier}` as const;
    let made = this.compressedRepresentations.get(key);
    if (!made) {
      made = {
        etag: this.tagOf(coding, tier),
        validators: [this.tagOf(coding, 'good'), this.tagOf(coding, 'fast')],
        body: () => {
          if (tier === 'fast') this.fastSends.set(coding, (this.fastSends.get(coding) ?? 0) + 1);
          return this.compressed(coding, tier);
        },
      };
      this.compressedRepresentations.set(key, made);
    }
    return made;
  }

  private tagOf(coding: Compressed, tier: Tier): string {
    return tier === 'good' ? `"${this.hash}-${coding}"` : `"${this.hash}-${coding}-fast"`;
  }

  private compressed(coding: Compressed, tier: Tier): Buffer {
    const kept = tier === 'good' ? this.bodies : this.fastBodies;
    let body = kept.get(coding);
    if (!body) {
      body = compress(this.json, coding, tier);
      kept.set(coding, body);
      // The fast bytes are not sent again once the good ones are made.
      if (tier === 'good') this.fastBodies.delete(coding);
    }
    return body;
  }

  /** The coding to send to a caller with this Accept-Encoding (RFC 9110 §12.5.3). */
  codingFor(acceptEncoding: string | undefined): ContentCoding {
    if (!acceptEncoding || this.length < MIN_COMPRESSED_BYTES) return 'identity';
    const accepted = acceptedCodings(acceptEncoding);
    if (accepted.has('br')) return 'br';
    if (accepted.has('gzip')) return 'gzip';
    return 'identity';
  }
}

function compress(json: string, coding: Compressed, tier: Tier): Buffer {
  const raw = Buffer.from(json, 'utf8');
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
            // Quality 5: within 1% of the best size for JSON at a tenth of the time (~1.5 ms per
            // 100 kB); quality 2, ~10% larger, at a third of that again (FAST_SENDS).
            [constants.BROTLI_PARAM_QUALITY]: tier === 'good' ? 5 : 2,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            // A window no larger than the answer (4 MB by default): the same bytes out, and
            // ~30 % less of quality 2's time on the list's 20-30 kB, spent preparing the window.
            [constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(raw.length),
          },
        })
      : gzipSync(raw, { level: tier === 'good' ? 6 : 1, chunkSize });
  // NOTE: zlib hands back a view of its 16 kB output chunk; kept per user, those add up (tens
  // of MB for a thousand players), so keep an exact copy instead.
  return ownBytes(compressed);
}

/** The smallest Brotli window (2^bits - 16 bytes, bits 10-24) that holds an input of this size. */
export function brotliWindowBits(size: number): number {
  let bits = constants.BROTLI_MIN_WINDOW_BITS;
  while ((1 << bits) - 16 < size && bits < constants.BROTLI_MAX_WINDOW_BITS) bits++;
  return bits;
}

/**
 * An exact copy of bytes kept for long in memory of its own. Node gives a small Buffer (under 4 kB)
 * a slice of a shared 8 kB pool, and a kept slice holds the whole pool's memory alive with the
 * short-lived buffers around it: thousands of kept answers could hold thousands of pools.
 */
function ownBytes(bytes: Uint8Array): Buffer {
  const own = Buffer.allocUnsafeSlow(bytes.length);
  own.set(bytes);
  return own;
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
