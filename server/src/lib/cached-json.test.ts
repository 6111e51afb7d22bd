import { describe, expect, it } from 'vitest';
import { CachedJson, MIN_COMPRESSED_BYTES, acceptedCodings } from './cached-json.js';

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

  it('sends small answers plain and large ones in the best accepted coding', () => {
    const small = new CachedJson('[1,2,3]');
    expect(small.codingFor('br')).toBe('identity');
    const large = new CachedJson(JSON.stringify('x'.repeat(MIN_COMPRESSED_BYTES)));
    expect(large.codingFor('gzip, br')).toBe('br');
    expect(large.codingFor('gzip')).toBe('gzip');
    expect(large.codingFor(undefined)).toBe('identity');
    expect(large.body('br')).toBe(large.body('br'));
    expect(large.etag('br')).not.toBe(large.etag());
  });
});
