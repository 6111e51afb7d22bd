import { expect } from 'vitest';
import type { TestResponse } from './build-test-app.js';

/**
 * What no answer may ever contain: a stack frame, a source path, an engine's error text or SQL.
 * Each pattern names what it catches, so a failure says what leaked.
 */
const INTERNALS: [string, RegExp][] = [
  ['stack frame', /\n\s+at\s|\bat\s+\S+\s+\(\S+:\d+:\d+\)/],
  ['source path', /\.(?:ts|js|mjs|cjs):\d+(?::\d+)?|node_modules|\/server\/(?:src|dist)\//],
  [
    'JavaScript error name',
    /\b(?:TypeError|ReferenceError|RangeError|SyntaxError|SqliteError|DatabaseError)\b/,
  ],
  [
    'engine error text',
    /SQLITE_|sqlite3?\b|postgres|pg_|kysely|duplicate key|violates|syntax error at|constraint failed|relation "|column "/i,
  ],
  ['SQL text', /\b(?:select\s+[\w"*., ]+\s+from|insert\s+into|update\s+"?\w+"?\s+set|delete\s+from)\b/i],
  ['undefined access', /Cannot read propert|is not a function|undefined is not/],
];

/** Every string inside a request body (and the raw text), so echoed input is not taken for a leak. */
export function stringsIn(value: unknown, out: string[] = []): string[] {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) stack.push(k, x);
  }
  return out;
}

/**
 * An answer fit to send: below 500, and its text free of internals. A 4xx carries a JSON message.
 * `echoed` are the request's own strings, removed before scanning (messages may quote input).
 */
export function expectSafeAnswer(res: TestResponse, echoed: readonly string[], context: string): void {
  expect(res.status, `${context}: status ${res.status} ${res.text.slice(0, 300)}`).toBeLessThan(500);
  expect(res.status, context).toBeGreaterThanOrEqual(200);
  let text = res.text;
  for (const s of [...echoed].filter((e) => e.length >= 3).sort((a, b) => b.length - a.length)) {
    text = text.split(s).join('');
    text = text.split(JSON.stringify(s).slice(1, -1)).join('');
  }
  for (const [what, pattern] of INTERNALS) {
    expect(pattern.test(text), `${context}: the answer shows a ${what}: ${text.slice(0, 400)}`).toBe(false);
  }
  if (res.status >= 400 && res.status !== 416) {
    expect(
      typeof res.body?.message,
      `${context}: a ${res.status} answer without a JSON message: ${text.slice(0, 200)}`,
    ).toBe('string');
  }
}
