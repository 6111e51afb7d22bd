import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { constantTimeEqual, constantTimeMatcher, sha256 } from './crypto.js';

describe('crypto', () => {
  it('sha256 is the base64url SHA-256 of the text', () => {
    const text = 'session-token-é';
    expect(sha256(text)).toBe(createHash('sha256').update(text).digest('base64url'));
  });

  it('a constant-time matcher accepts its text only', () => {
    const matches = constantTimeMatcher('flag{abc}');
    expect(matches('flag{abc}')).toBe(true);
    for (const other of ['flag{abd}', 'flag{abc', 'flag{abc}}', 'FLAG{abc}', '', 'flag{abc} '])
      expect(matches(other)).toBe(false);
    expect(constantTimeMatcher('')('')).toBe(true);
  });

  it('constantTimeEqual compares both ways alike', () => {
    expect(constantTimeEqual('a', 'a')).toBe(true);
    expect(constantTimeEqual('a', 'b')).toBe(false);
    expect(constantTimeEqual('ab', 'a')).toBe(false);
    expect(constantTimeEqual('a', 'ab')).toBe(false);
  });
});
