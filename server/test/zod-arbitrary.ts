import * as contract from '@ctf/contract';
import type { Endpoint } from '@ctf/contract';
import fc from 'fast-check';
import type { z } from 'zod';

/**
 * Request generation for the security suites: every endpoint of the contract, a fast-check
 * arbitrary that builds (mostly) valid bodies from its zod schema, and the mutations an attacker
 * would try on them. Only the schema's public shape is read (`_zod.def`), so a new endpoint or field
 * in contract/src/api is fuzzed without touching the tests.
 */

export interface ContractEndpoint {
  /** e.g. teamsApi.createTeam */
  key: string;
  endpoint: Endpoint;
}

/**
 * Every area the contract exports (`authApi`, `teamsApi`, ... and any added later): read from the
 * package itself, so an area cannot be left out of the fuzz, CSRF and leak suites by forgetting a list.
 */
const AREAS = Object.fromEntries(
  Object.entries(contract as Record<string, unknown>).filter(
    ([name, value]) => name.endsWith('Api') && typeof value === 'object' && value !== null,
  ),
) as Record<string, Record<string, unknown>>;

function isEndpoint(v: unknown): v is Endpoint {
  const e = v as Partial<Endpoint> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    (e.method === 'GET' || e.method === 'POST') &&
    typeof e.path === 'string' &&
    e.path.startsWith('/api/') &&
    typeof e.response === 'object'
  );
}

/** Every endpoint exported by contract/src/api/*.ts, once each (walked, not listed by hand). */
export function contractEndpoints(): ContractEndpoint[] {
  const seen = new Set<string>();
  const out: ContractEndpoint[] = [];
  for (const [area, exports] of Object.entries(AREAS)) {
    for (const [name, value] of Object.entries(exports)) {
      if (!isEndpoint(value)) continue;
      const id = `${value.method} ${value.path}`;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push({ key: `${area}.${name}`, endpoint: value });
    }
  }
  return out;
}

/** Values the generator prefers for a field of this name (ids and names that exist), mixed with random ones. */
export type Hints = Record<string, readonly unknown[]>;

type AnyDef = { type: string; checks?: { _zod: { def: Record<string, any> } }[]; [k: string]: any };

function def(schema: z.ZodType): AnyDef {
  return (schema as any)._zod.def as AnyDef;
}

function checks(d: AnyDef): Record<string, any>[] {
  return (d.checks ?? []).map((c) => c._zod.def);
}

function stringArb(d: AnyDef): fc.Arbitrary<string> {
  let minLength = 0;
  let maxLength = 40;
  let pattern: RegExp | undefined;
  for (const c of checks(d)) {
    if (c.check === 'min_length') minLength = c.minimum;
    if (c.check === 'max_length') maxLength = Math.min(c.maximum, 300);
    if (c.check === 'length_equals') minLength = maxLength = c.length;
    if (c.check === 'string_format' && c.pattern instanceof RegExp) pattern = c.pattern;
  }
  // fast-check cannot generate from a case-insensitive pattern; what matches it case-sensitively
  // matches it all the same.
  if (pattern?.flags.includes('i')) pattern = new RegExp(pattern.source, pattern.flags.replace('i', ''));
  if (pattern) {
    return fc
      .stringMatching(pattern)
      .filter((s) => s.length >= minLength && s.length <= Math.max(maxLength, minLength));
  }
  return fc.string({ minLength, maxLength: Math.max(minLength, maxLength), unit: 'grapheme' });
}

function numberArb(d: AnyDef): fc.Arbitrary<number> {
  let min = -1e6;
  let max = 1e6;
  let integer = false;
  for (const c of checks(d)) {
    if (c.check === 'greater_than') min = c.inclusive ? c.value : c.value + (integer ? 1 : 1e-6);
    if (c.check === 'less_than') max = c.inclusive ? c.value : c.value - 1;
    if (c.check === 'number_format' && (c.format === 'safeint' || c.format === 'int32')) integer = true;
  }
  if (integer) {
    const lo = Math.ceil(Math.max(min, Number.MIN_SAFE_INTEGER));
    const hi = Math.floor(Math.min(max, Number.MAX_SAFE_INTEGER));
    return fc.integer({ min: lo, max: Math.max(lo, hi) });
  }
  return fc.double({ min, max, noNaN: true });
}

/**
 * An arbitrary of inputs the schema accepts (best effort: refinements beyond length, pattern and
 * range are not modelled, so a share of the values is refused, which is fine for a fuzzer).
 */
export function arbitraryFor(schema: z.ZodType, hints: Hints = {}, field = ''): fc.Arbitrary<unknown> {
  const d = def(schema);
  const hinted = hints[field];
  const withHints = (arb: fc.Arbitrary<unknown>) =>
    hinted && hinted.length > 0
      ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...hinted) }, { weight: 1, arbitrary: arb })
      : arb;
  switch (d.type) {
    case 'string':
      return withHints(stringArb(d));
    case 'number':
      return withHints(numberArb(d));
    case 'boolean':
      return withHints(fc.boolean());
    case 'literal':
      return fc.constantFrom(...(d.values as unknown[]));
    case 'enum':
      return withHints(fc.constantFrom(...Object.values(d.entries as Record<string, unknown>)));
    case 'unknown':
    case 'any':
      return fc.jsonValue({ maxDepth: 2 });
    case 'null':
      return fc.constant(null);
    case 'optional':
      return fc.option(arbitraryFor(d.innerType, hints, field), { nil: undefined, freq: 4 });
    case 'nullable':
      return fc.option(arbitraryFor(d.innerType, hints, field), { nil: null, freq: 4 });
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
      return arbitraryFor(d.innerType, hints, field);
    case 'pipe':
      return arbitraryFor(d.in, hints, field);
    case 'union':
      return withHints(fc.oneof(...(d.options as z.ZodType[]).map((o) => arbitraryFor(o, hints, field))));
    case 'array': {
      let maxLength = 4;
      for (const c of checks(d)) if (c.check === 'max_length') maxLength = Math.min(maxLength, c.maximum);
      return fc.array(arbitraryFor(d.element, hints, `${field}[]`), { maxLength });
    }
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 10 }), arbitraryFor(d.valueType, hints, field), {
        maxKeys: 3,
      });
    case 'object': {
      const shape = d.shape as Record<string, z.ZodType>;
      const entries = Object.fromEntries(
        Object.entries(shape).map(([k, v]) => [k, arbitraryFor(v, hints, k)]),
      );
      return fc
        .record(entries)
        .map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));
    }
    default:
      throw new Error(`zod-arbitrary: no generator for schema type '${d.type}' (field '${field}')`);
  }
}

/** A value of a different JSON type than `v`. */
const wrongTypeFor = (v: unknown): fc.Arbitrary<unknown> =>
  fc.constantFrom<unknown>(
    ...[
      0,
      -1,
      1.5,
      1e308,
      -1e308,
      '',
      '1',
      'true',
      true,
      false,
      null,
      [],
      [v],
      {},
      { $gt: '' },
      { value: v },
    ].filter((x) => typeof x !== typeof v || (Array.isArray(x) !== Array.isArray(v) && x !== v)),
  );

/** Look-alikes and confusables of a string: what a name-squatter or a filter bypass would send. */
export function lookAlikes(s: string): string[] {
  const fullWidth = [...s]
    .map((c) => (c >= '!' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c))
    .join('');
  const cyrillic = s
    .replace(/a/g, '\u0430')
    .replace(/e/g, '\u0435')
    .replace(/o/g, '\u043e')
    .replace(/p/g, '\u0440');
  return [
    fullWidth,
    cyrillic,
    s.toUpperCase(),
    ` ${s} `,
    `${s}\u200b`,
    `\u202e${s}`,
    `${s}\u0301`,
    `${s}\ufeff`,
    // NFKC expands this one character to 18: length checks must run after normalisation too.
    `${s}\ufdfa`,
    `${s}\ud800`,
    `${s}\t\r\n`,
  ];
}

const EXTRA_KEYS: readonly [string, unknown][] = [
  ['is_admin', true],
  ['points', 99999],
  ['team_id', '1'],
  ['user_id', 1],
  ['leader_id', 1],
  ['flag', 'flag{x}'],
  ['constructor', { prototype: { polluted: true } }],
  ['prototype', { polluted: true }],
  ['$where', '1==1'],
  ['\u0000', 'nul key'],
  ['x'.repeat(500), 1],
];

/** A JSON text nested `depth` levels deep (arrays or objects), built without recursion. */
export function deeplyNestedJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? '['.repeat(depth) + ']'.repeat(depth)
    : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** A mutation of a (valid) body: the same request as an attacker or a broken client would send it. */
export interface Mutated {
  what: string;
  body: unknown;
}

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** Every mutation kind of the issue: wrong types, missing and extra fields, huge, look-alike and NUL strings, nesting. */
export function mutationsOf(valid: unknown): fc.Arbitrary<Mutated> {
  const obj =
    typeof valid === 'object' && valid !== null && !Array.isArray(valid)
      ? (valid as Record<string, unknown>)
      : null;
  const keys = obj ? Object.keys(obj) : [];
  const stringKeys = keys.filter((k) => typeof obj![k] === 'string');
  const withKey = <T>(build: (key: string) => fc.Arbitrary<T>): fc.Arbitrary<T>[] =>
    keys.length ? [fc.constantFrom(...keys).chain(build)] : [];
  const set = (key: string, value: unknown): Mutated['body'] => ({ ...clone(obj), [key]: value });
  const options: fc.Arbitrary<Mutated>[] = [
    ...withKey((k) => wrongTypeFor(obj![k]).map((v) => ({ what: `wrong type for ${k}`, body: set(k, v) }))),
    ...withKey((k) =>
      fc.constant({
        what: `missing ${k}`,
        body: Object.fromEntries(Object.entries(obj!).filter(([key]) => key !== k)),
      }),
    ),
    fc
      .constantFrom(...EXTRA_KEYS)
      .map(([k, v]) => ({ what: `extra field ${k.slice(0, 20)}`, body: { ...(obj ?? {}), [k]: v } })),
    ...withKey((k) =>
      fc
        .constantFrom(300, 5_000, 40_000)
        .map((n) => ({ what: `huge string (${n}) in ${k}`, body: set(k, 'A'.repeat(n)) })),
    ),
    ...(stringKeys.length
      ? [
          fc.constantFrom(...stringKeys).chain((k) =>
            fc.constantFrom(...lookAlikes(String(obj![k]))).map((v) => ({
              what: `look-alike ${JSON.stringify(v).slice(0, 30)} in ${k}`,
              body: set(k, v),
            })),
          ),
          fc.constantFrom(...stringKeys).chain((k) =>
            fc
              .constantFrom('\u0000', 'a\u0000b', `${String(obj![k])}\u0000`, '\u0000'.repeat(50))
              .map((v) => ({
                what: `NUL in ${k}`,
                body: set(k, v),
              })),
          ),
        ]
      : []),
    ...withKey((k) =>
      fc.integer({ min: 20, max: 400 }).map((depth) => {
        let nested: unknown = 1;
        for (let i = 0; i < depth; i++) nested = i % 2 ? [nested] : { a: nested };
        return { what: `nested ${depth} deep in ${k}`, body: set(k, nested) };
      }),
    ),
    fc.constantFrom<unknown>([], [valid], 'a string', 42, true, null, {}).map((b) => ({
      what: `body ${JSON.stringify(b)?.slice(0, 20)}`,
      body: b,
    })),
  ];
  // About a third of the requests go through unmutated, so the accepted paths are exercised too.
  return fc.oneof({ weight: 5, arbitrary: fc.constant({ what: 'valid', body: valid }) }, ...options);
}

/**
 * Raw requests no JSON encoder would make: wrong content types, broken or empty bodies, and bodies
 * past the 64 KB limit. `valid` is a body the endpoint would accept, sent in the wrong envelope.
 */
export function rawEnvelopes(
  valid: unknown,
): { what: string; payload: string | Buffer; contentType?: string; expect?: number[] }[] {
  const json = JSON.stringify(valid ?? {});
  return [
    { what: 'form-encoded', payload: 'team_name=x&flag=y', contentType: 'application/x-www-form-urlencoded' },
    { what: 'text/plain JSON', payload: json, contentType: 'text/plain' },
    { what: 'text/html', payload: '<b>x</b>', contentType: 'text/html' },
    { what: 'xml', payload: '<?xml version="1.0"?><a/>', contentType: 'application/xml' },
    {
      what: 'multipart',
      payload: '--b\r\nContent-Disposition: form-data; name="x"\r\n\r\ny\r\n--b--\r\n',
      contentType: 'multipart/form-data; boundary=b',
    },
    {
      what: 'JSON as utf-16',
      payload: Buffer.from(json, 'utf16le'),
      contentType: 'application/json; charset=utf-16',
    },
    { what: 'no content type', payload: json },
    { what: 'empty JSON body', payload: '', contentType: 'application/json' },
    {
      what: 'truncated JSON',
      payload: json.slice(0, Math.max(1, json.length - 1)),
      contentType: 'application/json',
    },
    { what: 'JSON with trailing garbage', payload: `${json}}}`, contentType: 'application/json' },
    { what: 'not JSON', payload: "{'a': 1,}", contentType: 'application/json' },
    { what: 'NaN token', payload: '{"a": NaN}', contentType: 'application/json' },
    { what: 'BOM-prefixed JSON', payload: `\ufeff${json}`, contentType: 'application/json' },
    {
      what: 'invalid UTF-8',
      payload: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
      contentType: 'application/json',
    },
    {
      what: '__proto__ key',
      payload: `{"__proto__": {"is_admin": true}, ${json.slice(1)}`,
      contentType: 'application/json',
    },
    {
      what: 'constructor.prototype key',
      payload: `{"constructor": {"prototype": {"is_admin": true}}}`,
      contentType: 'application/json',
    },
    {
      what: 'duplicate keys',
      payload: json.length > 2 ? `${json.slice(0, -1)}, ${json.slice(1)}` : json,
      contentType: 'application/json',
    },
    {
      what: 'nested arrays 5000 deep',
      payload: deeplyNestedJson(5000, 'array'),
      contentType: 'application/json',
    },
    {
      what: 'nested objects 3000 deep',
      payload: deeplyNestedJson(3000, 'object'),
      contentType: 'application/json',
    },
    { what: 'huge number', payload: '{"a": 1e999999}', contentType: 'application/json' },
    {
      what: 'body over 64 KB',
      payload: JSON.stringify({
        ...(typeof valid === 'object' && valid ? valid : {}),
        pad: 'x'.repeat(70 * 1024),
      }),
      contentType: 'application/json',
      expect: [401, 403, 413],
    },
  ];
}
