import { API_DOCS_PATH, OPENAPI_PATH, ROUTES, apiReference, tokenRuleFor } from '@ctf/contract';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { registeredRoutes } from '../../../test/registered-routes.js';
import type { RegisteredRoute } from '../../plugins/route-table.js';
import { jsonSchemaOf, openApiPath, type OpenApiDocument } from './openapi.js';

/** Routes that are pages of the site, not its API: the web app and its redirects. */
function isApiRoute(path: string): boolean {
  return path.startsWith('/api/') || path === '/metrics';
}

/**
 * What differs between the routes the app registered and the reference: a route missing from
 * the document, a documented route nobody registered, or a schema other than the registered one.
 * `tree` is Fastify's own route tree (printRoutes, which also has what was registered before the
 * table's hook; it prints a wildcard route without its prefix); `table` the registrations with
 * their schemas.
 */
function referenceMismatches(
  tree: { method: string; path: string }[],
  table: readonly RegisteredRoute[],
  doc: OpenApiDocument,
): string[] {
  const problems: string[] = [];
  const served = [...tree, ...table.map((r) => ({ method: r.method, path: r.url }))];
  const servedKeys = new Set(served.map((r) => `${r.method} ${openApiPath(r.path)}`));
  for (const r of served) {
    if (r.method === 'HEAD' || !isApiRoute(r.path)) continue;
    const problem = `${r.method} ${r.path} is served but missing from the document`;
    if (!doc.paths[openApiPath(r.path)]?.[r.method.toLowerCase()] && !problems.includes(problem)) {
      problems.push(problem);
    }
  }
  for (const [path, byMethod] of Object.entries(doc.paths)) {
    for (const method of Object.keys(byMethod)) {
      if (!servedKeys.has(`${method.toUpperCase()} ${path}`)) {
        problems.push(`${method.toUpperCase()} ${path} is documented but not served`);
      }
    }
  }
  for (const r of table) {
    if (r.method === 'HEAD' || !isApiRoute(r.url)) continue;
    const op = doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()];
    if (!op) continue;
    const schema = r.schema as
      { body?: z.ZodType; querystring?: z.ZodType; response?: Record<number, z.ZodType> } | undefined;
    const at = `${r.method} ${r.url}`;
    const documentedBody = op.requestBody?.content['application/json']?.schema;
    const registeredBody = schema?.body ? jsonSchemaOf(schema.body, 'input') : undefined;
    if (JSON.stringify(documentedBody) !== JSON.stringify(registeredBody))
      problems.push(`${at}: body differs`);
    const documentedQuery = (op.parameters ?? [])
      .filter((p) => p.in === 'query')
      .map((p) => [p.name, p.schema]);
    const querySchema = schema?.querystring ? jsonSchemaOf(schema.querystring, 'input') : undefined;
    const registeredQuery = Object.entries((querySchema?.properties ?? {}) as Record<string, unknown>);
    if (JSON.stringify(documentedQuery) !== JSON.stringify(registeredQuery))
      problems.push(`${at}: query differs`);
    const answer = schema?.response?.[200];
    const documentedAnswer = op.responses['200']?.content?.['application/json']?.schema;
    if (answer && !Object.keys(op.responses['200']?.content ?? {}).some((t) => t !== 'application/json')) {
      if (JSON.stringify(documentedAnswer) !== JSON.stringify(jsonSchemaOf(answer, 'output'))) {
        problems.push(`${at}: answer differs`);
      }
    }
    if (r.access === 'user' || r.access === 'admin') {
      // A session always; a personal token with the scope the token table names, where it names one.
      const rule = tokenRuleFor({ method: r.method as 'GET', path: r.url });
      const expected = [{ session: [] }, ...(rule && rule !== 'session' ? [{ apiToken: [rule] }] : [])];
      if (!op.responses['401'] || JSON.stringify(op.security) !== JSON.stringify(expected)) {
        problems.push(`${at}: needs a session but the document does not say so`);
      }
    }
    if (r.access && (r.access === 'admin') !== Boolean(op.responses['403']))
      problems.push(`${at}: 403 differs`);
  }
  return problems;
}

describe('API reference (GET /api/openapi.json, GET /api/docs)', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    const res = await t.visitor().get(OPENAPI_PATH);
    expect(res.status).toBe(200);
    doc = res.body as OpenApiDocument;
  });
  afterAll(async () => t.close());

  it('is an OpenAPI 3.1 document of every registered API route, with the registered schemas', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: t.config.publicUrl }]);
    expect(referenceMismatches(registeredRoutes(t.app), t.routes, doc)).toEqual([]);
  });

  it('the check fails for a route outside the reference, or a schema that differs', () => {
    const served = [...registeredRoutes(t.app), { method: 'POST', path: '/api/admin/not_in_contract' }];
    expect(referenceMismatches(served, t.routes, doc)).toEqual([
      'POST /api/admin/not_in_contract is served but missing from the document',
    ]);
    const changed = structuredClone(doc);
    changed.paths['/api/ctf/submit-flag']!.post!.requestBody!.content['application/json']!.schema = {
      type: 'object',
    };
    expect(referenceMismatches(registeredRoutes(t.app), t.routes, changed)).toEqual([
      'POST /api/ctf/submit-flag: body differs',
    ]);
    const unserved = structuredClone(doc);
    unserved.paths['/api/nowhere'] = { get: doc.paths['/api/health']!.get! };
    expect(referenceMismatches(registeredRoutes(t.app), t.routes, unserved)).toEqual([
      'GET /api/nowhere is documented but not served',
    ]);
  });

  it('lists every route of ROUTES with its method, and the catalogue has a line for each', () => {
    for (const routes of Object.values(ROUTES)) {
      for (const r of Object.values(routes) as { method: string; path: string }[]) {
        const op = doc.paths[r.path]?.[r.method.toLowerCase()];
        expect(op, `${r.method} ${r.path}`).toBeDefined();
        expect(op!.summary.length).toBeGreaterThan(10);
      }
    }
    expect(new Set(apiReference().map((e) => `${e.area}.${e.name}`)).size).toBe(apiReference().length);
  });

  it('describes bodies, queries, answers, access and refusals as the contract does', () => {
    const submit = doc.paths['/api/ctf/submit-flag']!.post!;
    expect(submit.security).toEqual([{ session: [] }, { apiToken: ['play'] }]);
    expect(doc.components.securitySchemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    const tokens = doc.paths['/api/user/tokens']!;
    expect(tokens.post!.requestBody!.content['application/json']!.schema).toMatchObject({
      required: ['name'],
    });
    expect(tokens.get!.security).toEqual([{ session: [] }, { apiToken: ['read'] }]);
    // Creating a token is a signed-in session's alone: no token is offered.
    expect(tokens.post!.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/user/tokens/delete']!.post).toBeDefined();
    expect(submit.requestBody!.content['application/json']!.schema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['challenge_id', 'flag']),
    });
    expect(submit.responses['401']!.content!['application/json']!.example).toEqual({
      message: 'Unauthorized',
      code: 'unauthenticated',
    });
    const removeUser = doc.paths['/api/admin/remove_user']!.post!;
    expect(removeUser.responses['403']!.content!['application/json']!.example).toEqual({
      acknowledge: false,
      message: 'Forbidden',
      code: 'forbidden',
    });
    const board = doc.paths['/api/info/leaderboard']!.get!;
    expect(board.security).toBeUndefined();
    expect(board.parameters!.map((p) => p.name)).toEqual(expect.arrayContaining(['limit', 'offset', 'q']));
    expect(board.responses['400']).toBeDefined();
    expect(Object.keys(doc.paths['/api/admin/export/solves.csv']!.get!.responses['200']!.content!)).toEqual([
      'text/csv',
    ]);
    expect(Object.keys(doc.paths['/api/admin/ctf/upload']!.post!.requestBody!.content)).toEqual([
      'multipart/form-data',
    ]);
    expect(doc.paths['/api/admin/ctf/team-flag']!.get!.security).toEqual([{ adminApiToken: [] }]);
    expect(doc.paths['/metrics']!.get!.security).toEqual([{ metricsToken: [] }]);
    expect(doc.paths['/api/ctf/download/{name}']!.get!.parameters![0]).toMatchObject({
      name: 'name',
      in: 'path',
    });
    expect(doc.paths['/api/events']!.get!.responses['200']!.content).toHaveProperty(['text/event-stream']);
    expect(doc.info.description).toContain('| `already_solved` | 409 |');
  });

  it('GET /api/docs is a page of its own: every route, no script, no other origin, the CSP', async () => {
    const res = await t.visitor().get(API_DOCS_PATH);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(res.text).not.toMatch(/<script|<link|<img|\son\w+=/i);
    expect(res.text).not.toMatch(/(src|href)="(https?:)?\/\//);
    for (const [path, byMethod] of Object.entries(doc.paths)) {
      for (const op of Object.values(byMethod)) expect(res.text).toContain(`id="${op.operationId}"`);
      expect(res.text).toContain(`<code>${path}</code>`);
    }
    expect(res.text).toContain(`href="${OPENAPI_PATH}"`);
  });
});
