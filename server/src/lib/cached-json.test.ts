import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  CachedJson,
  FAST_SENDS,
  MIN_COMPRESSED_BYTES,
  acceptedCodings,
  brotliWindowBits,
} from './cached-json.js';

describe('Accept-Encoding negotiation', () => {
  it('reads the codings a caller accepts, honouring q=0 and *', () => {
    expect([...acceptedCodings('gzip, deflate, br, zstd')].sort()).toEqual(['br', 'gzip']);
    expect([...acceptedCodings('gzip;q=0.5, br;q=0')]).toEqual(['gzip']);
    expect([...acceptedCodings('*')].sort()).toEqual(['br', 'gzip']);
    expect([...acceptedCodings('*, br;q=0')]).toEqual(['gzip']);
    expect([...acceptedCodings('identity')]).toEqual([]);
    expect([...acceptedCodings('x-gzip')]).toEqual(['gzip']);
    expect([...acceptedCodings('BR;Q=1')]).toEqual(['br']);
    expect([...acceptedCodings('br;q=nonsense, ,;')]).toEqual([]);
  });

  it('keeps a short answer as its bytes, sent as they are, and gives its text back', () => {
    const json = JSON.stringify({ name: 'Zoë', points: [1, 2, 3] });
    const small = new CachedJson(json);
    const sent = small.representation('identity').body();
    expect(Buffer.isBuffer(sent)).toBe(true);
    expect(sent.toString('utf8')).toBe(json);
    // Memory of its own, not a slice of Node's shared pool (which a kept slice would hold alive).
    expect((sent as Buffer).buffer.byteLength).toBe(sent.length);
    expect(small.json).toBe(json);
    // The same representation every time: nothing is made per request.
    expect(small.representation('identity')).toBe(small.representation('identity'));
    expect(small.etag()).toBe(new CachedJson(json).etag());
  });

  it('sends small answers plain and large ones in the best accepted coding', () => {
    const small = new CachedJson('[1,2,3]');
    expect(small.codingFor('br')).toBe('identity');
    const large = new CachedJson(JSON.stringify('x'.repeat(MIN_COMPRESSED_BYTES)));
    expect(large.codingFor('gzip, br')).toBe('br');
    expect(large.codingFor('gzip')).toBe('gzip');
    expect(large.codingFor(undefined)).toBe('identity');
    expect(large.body('br')).toBe(large.body('br'));
    expect((large.body('br') as Buffer).buffer.byteLength).toBe(large.body('br').length);
    expect(large.etag('br')).not.toBe(large.etag());
  });
});

describe('Brotli with a window as large as the answer', () => {
  it("picks the smallest window that holds the input, within Brotli's 10-24 bits", () => {
    expect(brotliWindowBits(0)).toBe(10);
    expect(brotliWindowBits(1008)).toBe(10);
    expect(brotliWindowBits(1009)).toBe(11);
    expect(brotliWindowBits(30_000)).toBe(15);
    expect(brotliWindowBits(32_752)).toBe(15);
    expect(brotliWindowBits(32_753)).toBe(16);
    expect(brotliWindowBits(100_000_000)).toBe(24);
  });

  it.each([MIN_COMPRESSED_BYTES, 5_000, 33_000, 300_000])(
    'gives back the same JSON from an answer of %i characters, fast and well compressed',
    (size) => {
      const json = JSON.stringify(
        Array.from({ length: Math.ceil(size / 24) }, (_, i) => `p${(i * 7919) % 100_003}`),
      );
      const answer = new CachedJson(json);
      for (let i = 0; i <= FAST_SENDS; i++) {
        expect(brotliDecompressSync(answer.representation('br').body() as Buffer).toString('utf8')).toBe(
          json,
        );
      }
    },
  );
});

describe('a new answer compressed fast first', () => {
  const json = JSON.stringify(
    Array.from({ length: 400 }, (_, i) => ({ name: `player-${i}`, points: 1000 - i })),
  );
  const decoded = (coding: 'br' | 'gzip', body: string | Buffer) =>
    (coding === 'br' ? brotliDecompressSync(body as Buffer) : gunzipSync(body as Buffer)).toString('utf8');

  it.each(['br', 'gzip'] as const)(
    'sends its first %s bodies fast, with their own ETag, then the well-compressed ones',
    (coding) => {
      const answer = new CachedJson(json);
      const sent: { etag: string; body: string | Buffer }[] = [];
      for (let i = 0; i < FAST_SENDS + 2; i++) {
        const r = answer.representation(coding);
        sent.push({ etag: r.etag, body: r.body() });
      }
      const fast = sent.slice(0, FAST_SENDS);
      const good = sent.slice(FAST_SENDS);
      for (const s of sent) expect(decoded(coding, s.body)).toBe(json);
      expect(new Set(fast.map((s) => s.etag))).toEqual(
        new Set([`${answer.etag(coding).slice(0, -1)}-fast"`]),
      );
      for (const s of good) expect(s.etag).toBe(answer.etag(coding));
      expect(good[0]!.body).toBe(answer.body(coding));
      // Different bytes: the fast ones larger.
      expect(fast[0]!.body.length).toBeGreaterThan(good[0]!.body.length);
      expect(answer.representation(coding).etag).toBe(answer.etag(coding));
      // A caller holding the fast bytes revalidates with their tag: the same content, still valid.
      expect(answer.representation(coding).validators).toContain(fast[0]!.etag);
    },
  );

  it('counts only bodies sent: revalidations (no body) leave an answer fast', () => {
    const answer = new CachedJson(json);
    for (let i = 0; i < 10; i++) answer.representation('br');
    expect(answer.representation('br').etag).toMatch(/-br-fast"$/);
    // An answer already compressed well (asked for its bytes) sends those from then on.
    answer.body('br');
    expect(answer.representation('br').etag).toBe(answer.etag('br'));
    expect(answer.representation('identity')).toMatchObject({ etag: answer.etag() });
    expect(answer.representation('identity').body()).toBe(json);
  });
});
