import { describe, expect, it } from 'vitest';
import { DomainError } from './errors.js';

describe('DomainError', () => {
  it('carries its code, status, message and retry time, without a stack', () => {
    const limit = Error.stackTraceLimit;
    const err = new DomainError('rate_limited', 'Too many wrong flags. Try again in 5 seconds.', 5);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({
      code: 'rate_limited',
      statusCode: 429,
      retryAfterSeconds: 5,
      name: 'DomainError',
    });
    expect(err.message).toBe('Too many wrong flags. Try again in 5 seconds.');
    expect(err.stack).toBe('DomainError: Too many wrong flags. Try again in 5 seconds.');
    // Other errors keep their stacks.
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('fault').stack).toContain('errors.test.ts');
  });
});
