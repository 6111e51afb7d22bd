import {
  ErrorResponse,
  MESSAGES,
  adminApi,
  apiReference,
  tokenRuleFor,
  type Access,
  type Endpoint,
  type RawRoute,
  type ReferenceEntry,
} from '@ctf/contract';
import { z } from 'zod';
import { DOMAIN_ERROR_STATUS } from '../../lib/errors.js';

export type JsonSchema = Record<string, unknown>;

export interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  security?: Record<string, string[]>[];
  parameters?: {
    name: string;
    in: 'query' | 'path';
    required: boolean;
    schema: JsonSchema;
    description?: string;
  }[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, Response>;
}

export interface Response {
  description: string;
  content?: Record<string, { schema: JsonSchema; example?: unknown }>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: {
    title: string;
    version: string;
    description: string;
    license: { name: string; identifier: string };
  };
  servers: { url: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
}

export interface DocumentOptions {
  version: string;
  publicUrl: string;
  /** The session cookie's name (with the __Host- prefix on https). */
  sessionCookie: string;
  /** route()'s access of a registered route, by `METHOD path`; undefined when none was recorded. */
  accessOf(method: string, path: string): Access | undefined;
}

/**
 * A zod schema as JSON Schema 2020-12 (what OpenAPI 3.1 uses), inline: request bodies and queries
 * as they are sent (input), answers as they are sent back (output). A transform has no JSON Schema
 * and stands as "anything" on its side; the contract's transforms all follow a typed input.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    reused: 'inline',
    cycles: 'throw',
  }) as JsonSchema;
  delete converted.$schema;
  return converted;
}

/** Fastify's wildcard (`/prefix/*`) as an OpenAPI path parameter. */
export function openApiPath(path: string): string {
  return path.endsWith('/*') ? `${path.slice(0, -1)}{name}` : path;
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };

const WHO: Record<Access, string> = {
  anonymous: 'Anyone; the same answer for every caller (no session is read).',
  public: 'Anyone; the answer may depend on the session.',
  user: 'A signed-in user (session cookie, or a personal API token).',
  admin: 'An admin (session cookie, or an admin’s personal API token).',
  token: 'A bearer token from the configuration, not a session.',
};

function errorResponse(description: string, example?: Record<string, unknown>): Response {
  return {
    description,
    content: { 'application/json': { schema: ERROR_REF, ...(example ? { example } : {}) } },
  };
}

/** Admin calls answer errors as {acknowledge: false, message, code}; the others as {message, code}. */
function errorBody(path: string, message: string, code: string): Record<string, unknown> {
  const admin = path.startsWith('/api/admin/') && path !== '/api/admin/authenticated';
  return admin ? { acknowledge: false, message, code } : { message, code };
}

/**
 * Who may call a route. A personal token is offered only where the token table lets one in, with
 * the scope it needs as the requirement's role (OpenAPI 3.1 allows roles on any scheme).
 */
function security(access: Access, path: string, method: string): Record<string, string[]>[] | undefined {
  const rule = tokenRuleFor({ method: method as 'GET', path });
  const token = rule && rule !== 'session' ? [{ apiToken: [rule] }] : [];
  if (access === 'user' || access === 'admin') return [{ session: [] }, ...token];
  if (access === 'public') return [{}, { session: [] }, ...token];
  if (access === 'token') return [{ [path === '/metrics' ? 'metricsToken' : 'adminApiToken']: [] }];
  return undefined;
}

function queryParameters(query: z.ZodType): NonNullable<Operation['parameters']> {
  const schema = jsonSchemaOf(query, 'input');
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (schema.type !== 'object' || !properties) throw new Error('A query schema must be an object');
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: 'query' as const,
    required: required.has(name),
    schema: s,
  }));
}

function endpointOperation(entry: ReferenceEntry, endpoint: Endpoint, access: Access): Operation {
  const op: Operation = {
    operationId: `${entry.area}.${entry.name}`,
    tags: [entry.area],
    summary: entry.summary,
    description: WHO[access],
    responses: {},
  };
  const sec = security(access, entry.path, entry.method);
  if (sec) op.security = sec;
  if (endpoint.query) op.parameters = queryParameters(endpoint.query);
  if (endpoint.body) {
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: jsonSchemaOf(endpoint.body, 'input') } },
    };
  } else if (endpoint.consumes === 'multipart/form-data') {
    op.requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
            required: ['file'],
          },
        },
      },
    };
  }
  op.responses['200'] = endpoint.produces
    ? { description: 'OK', content: { [endpoint.produces]: { schema: { type: 'string' } } } }
    : {
        description: 'OK',
        content: { 'application/json': { schema: jsonSchemaOf(endpoint.response, 'output') } },
      };
  if (endpoint.body || endpoint.query || endpoint.consumes) {
    op.responses['400'] = errorResponse(
      'The input does not fit its schema: "Invalid <field>: <reason>", or the refusal of a rule.',
      errorBody(entry.path, 'Invalid input: <reason>', 'bad_input'),
    );
  }
  addAccessErrors(op, access, entry.path);
  return op;
}

function addAccessErrors(op: Operation, access: Access, path: string): void {
  if (access === 'user' || access === 'admin') {
    op.responses['401'] = errorResponse(
      'No session, or it ended.',
      errorBody(path, MESSAGES.unauthorized, 'unauthenticated'),
    );
  }
  if (access === 'admin') {
    op.responses['403'] = errorResponse(
      'The caller is not an admin.',
      errorBody(path, MESSAGES.forbidden, 'forbidden'),
    );
  }
  op.responses['4XX'] = errorResponse(
    'Another refusal: its message says why and its code names it (see the table of codes above).',
  );
}

function rawOperation(entry: ReferenceEntry, raw: RawRoute): Operation {
  const op: Operation = {
    operationId: `${entry.area}.${entry.name}`,
    tags: [entry.area],
    summary: entry.summary,
    description: WHO[raw.access],
    responses: {},
  };
  const sec = security(raw.access, entry.path, entry.method);
  if (sec) op.security = sec;
  if (entry.path.endsWith('/*')) {
    op.parameters = [
      {
        name: 'name',
        in: 'path',
        required: true,
        schema: { type: 'string' },
        description: "The file's name.",
      },
    ];
  }
  op.responses[raw.produces === 'redirect' ? '302' : '200'] =
    raw.produces === 'redirect'
      ? { description: 'Redirect (Location).' }
      : { description: 'OK', content: { [raw.produces]: { schema: { type: 'string' } } } };
  for (const [status, description] of Object.entries(raw.statuses ?? {})) {
    op.responses[status] =
      status === '200'
        ? { description, content: { 'text/html': { schema: { type: 'string' } } } }
        : errorResponse(description);
  }
  if (raw.access === 'user' || raw.access === 'admin') addAccessErrors(op, raw.access, entry.path);
  return op;
}

/** The service-token endpoints are registered by hand; the contract names them. */
const TOKEN_PATHS = new Set(adminApi.TOKEN_ENDPOINTS.map((e) => `${e.method} ${e.path}`));

function description(sessionCookie: string): string {
  const codes = Object.entries(DOMAIN_ERROR_STATUS)
    .map(([code, status]) => `| \`${code}\` | ${status} |`)
    .join('\n');
  return [
    'The JSON API of the CTF site, generated from the zod schemas of its contract package (`contract/src/api`).',
    '',
    `**Sessions.** Users sign in through the site (Discord or GitHub; a local trial by name); the session is the \`${sessionCookie}\` cookie. A script sends a personal API token instead (\`Authorization: Bearer ctf_...\`, made on the profile page): it acts as its user, with that user's role and rate limits, within its scopes (each operation's apiToken requirement names the scope it needs; an operation without one takes no token), until it is revoked or expires.`,
    '',
    '**POST requests** must carry an `Origin` (or `Referer`) header of the site itself, else they are refused with 403; a request with a personal API token and no cookie needs none.',
    '',
    '**Errors** answer `{"message", "code"}`; calls under `/api/admin/` answer `{"acknowledge": false, "message", "code"}`. A refusal that may be retried later carries `Retry-After`. The codes and their statuses:',
    '',
    '| code | status |',
    '| --- | --- |',
    codes,
    '',
    'The public reads (challenge list, leaderboard, site info, ...) carry an `ETag` and answer `304` to `If-None-Match`.',
  ].join('\n');
}

/**
 * The OpenAPI 3.1 document of every route the contract's catalogue lists (contract/src/api/reference.ts):
 * paths, bodies, queries and answers from the zod schemas, access from route()'s registration.
 */
export function buildOpenApiDocument(options: DocumentOptions): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const tags: string[] = [];
  for (const entry of apiReference()) {
    let op: Operation;
    if ('endpoint' in entry.route) {
      const key = `${entry.method} ${entry.path}`;
      const access = TOKEN_PATHS.has(key) ? 'token' : options.accessOf(entry.method, entry.path);
      if (!access) throw new Error(`${key} is in the contract but was not registered through route()`);
      op = endpointOperation(entry, entry.route.endpoint, access);
    } else {
      op = rawOperation(entry, entry.route.raw);
    }
    const path = openApiPath(entry.path);
    (paths[path] ??= {})[entry.method.toLowerCase()] = op;
    if (!tags.includes(entry.area)) tags.push(entry.area);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'CTF platform API',
      version: options.version,
      description: description(options.sessionCookie),
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: options.publicUrl }],
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      schemas: {
        Error: jsonSchemaOf(ErrorResponse, 'output'),
      },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: options.sessionCookie },
        apiToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'A personal API token (ctf_...), made on the profile page (POST /api/user/tokens).',
        },
        adminApiToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_API_TOKEN' },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN' },
      },
    },
  };
}
