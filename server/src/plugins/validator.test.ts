import Fastify, { type FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { KEPT_QUERIES_PER_ROUTE, KEPT_QUERY_MAX_LENGTH, routeValidatorCompiler } from './validator.js';

let app: FastifyInstance;
afterEach(async () => app?.close());

/** A server whose routes hand back what they were given, and remember it to compare identities. */
async function server() {
  app = Fastify();
  app.setValidatorCompiler(routeValidatorCompiler);
  const seen: unknown[] = [];
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const page = z.object({ limit: z.string().regex(/^\d+$/).transform(Number), q: z.string().optional() });
  typed.get('/page', { schema: { querystring: page } }, async (request) => {
    seen.push(request.query);
    return { query: request.query, frozen: Object.isFrozen(request.query) };
  });
  const dated = z.object({ at: z.iso.datetime().transform((t) => new Date(t)) });
  typed.get('/dated', { schema: { querystring: dated } }, async (request) => {
    seen.push(request.query);
    return { frozen: Object.isFrozen(request.query) };
  });
  typed.post('/body', { schema: { body: z.object({ n: z.number() }) } }, async (request) => {
    seen.push(request.body);
    return { frozen: Object.isFrozen(request.body) };
  });
  await app.ready();
  const get = (url: string) => app.inject({ method: 'GET', url });
  return { seen, get };
}

describe('routeValidatorCompiler', () => {
  it('keeps a valid query string, frozen, and answers the same query with the same value', async () => {
    const { seen, get } = await server();
    const first = await get('/page?limit=50&q=ann');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ query: { limit: 50, q: 'ann' }, frozen: true });
    expect((await get('/page?limit=50&q=ann')).json()).toEqual(first.json());
    expect(seen[1]).toBe(seen[0]);
    // Another query is validated on its own.
    expect((await get('/page?limit=5')).json()).toEqual({ query: { limit: 5 }, frozen: true });
    expect(seen[2]).not.toBe(seen[0]);
  });

  it('refuses an invalid query each time, and keeps nothing of it', async () => {
    const { get } = await server();
    for (let i = 0; i < 2; i++) {
      const res = await get('/page?limit=many');
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/limit/);
    }
  });

  it('never keeps a value with an object in it, a long query or a body', async () => {
    const { seen, get } = await server();
    for (let i = 0; i < 2; i++) {
      expect((await get('/dated?at=2026-11-29T00:00:00Z')).json()).toEqual({ frozen: false });
    }
    expect(seen[1]).not.toBe(seen[0]);

    const long = 'x'.repeat(KEPT_QUERY_MAX_LENGTH);
    await get(`/page?limit=1&q=${long}`);
    const again = await get(`/page?limit=1&q=${long}`);
    expect(again.json().frozen).toBe(false);
    expect(seen[3]).not.toBe(seen[2]);

    for (let i = 0; i < 2; i++) {
      const res = await app.inject({ method: 'POST', url: '/body', payload: { n: 1 } });
      expect(res.json()).toEqual({ frozen: false });
    }
    expect(seen[5]).not.toBe(seen[4]);
  });

  it('keeps at most KEPT_QUERIES_PER_ROUTE queries a route: the one kept longest goes first', async () => {
    const { seen, get } = await server();
    await get('/page?limit=0');
    for (let i = 1; i < KEPT_QUERIES_PER_ROUTE; i++) await get(`/page?limit=${i}`);
    await get('/page?limit=0');
    expect(seen.at(-1)).toBe(seen[0]); // still kept: the route holds exactly its bound
    await get(`/page?limit=${KEPT_QUERIES_PER_ROUTE}`); // one more: the first goes
    await get('/page?limit=0');
    expect(seen.at(-1)).not.toBe(seen[0]);
    expect(seen.at(-1)).toEqual(seen[0]);
  });
});
