import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random URL-safe token of `bytes` bytes (256 bits by default). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

// crypto.hash is the one-shot form: no Hash object per call (~1.3 against ~3.3 us for a short text).
export function sha256(value: string): string {
  return hash('sha256', value, 'base64url');
}

export function hmac(secret: string, ...parts: (string | number)[]): string {
  return createHmac('sha256', secret).update(parts.join('\u0000')).digest('base64url');
}

/**
 * Compares two strings in time that depends only on their hashed form, so neither the length nor
 * the content of the secret leaks through timing.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  return constantTimeMatcher(b)(a);
}

/**
 * constantTimeEqual with one side fixed: its hash is taken once, so each comparison hashes only
 * the other side (a flag checked at every submission).
 */
export function constantTimeMatcher(expected: string): (value: string) => boolean {
  const digest = hash('sha256', expected, 'buffer');
  return (value) =>
    timingSafeEqual(hash('sha256', value, 'buffer'), digest) && value.length === expected.length;
}
