import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import type { AppContext } from '../src/context.js';
import type { Clock } from '../src/lib/clock.js';
import { createSession } from '../src/modules/auth/sessions.service.js';
import { findOrCreateUser } from '../src/modules/users/users.service.js';
import type { Role } from '@ctf/contract';
import { roleColumns } from '../src/db/user-role.js';
import type { UserRow } from '../src/db/schema.js';
import type { RegisteredRoute } from '../src/plugins/route-table.js';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from './databases.js';

export const TEST_ORIGIN = 'http://localhost:3000';
/** The event window of every test app that names none: it ended before the test clock's time. */
export const TEST_EVENT_WINDOW = { start: '2025-10-14T21:00:00-04:00', end: '2025-10-21T21:00:00-04:00' };
export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123456789';

/** A clock a test can set and move. */
export class TestClock implements Clock {
  constructor(private t = Date.parse('2026-01-10T12:00:00Z')) {}
  now(): Date {
    return new Date(this.t);
  }
  set(iso: string | number): void {
    this.t = typeof iso === 'number' ? iso : Date.parse(iso);
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** Every route as it was registered, with its schemas (buildApp's route table). */
  routes: readonly RegisteredRoute[];
  config: Config;
  clock: TestClock;
  database: TestDatabase;
  /** Signs in (creating the user); `role` gives a staff role, `admin` the admin role. */
  login(username: string, options?: { admin?: boolean; role?: Role }): Promise<TestClient>;
  /** A client with no session. */
  visitor(): TestClient;
  close(): Promise<void>;
}

export interface TestResponse<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Record<string, string | string[] | number | undefined>;
}

/** Requests through app.inject with our Origin (so POSTs pass the CSRF check) and a cookie. */
export class TestClient {
  constructor(
    private readonly app: FastifyInstance,
    readonly cookie: string | undefined,
    readonly user: UserRow | null,
  ) {}

  async request<T = any>(opts: InjectOptions): Promise<TestResponse<T>> {
    const headers: Record<string, string> = {
      origin: TEST_ORIGIN,
      ...(opts.headers as Record<string, string>),
    };
    if (this.cookie) headers.cookie = this.cookie;
    const res = await this.app.inject({ ...opts, headers });
    let body: any = undefined;
    if (res.body && String(res.headers['content-type'] ?? '').includes('json')) body = JSON.parse(res.body);
    return { status: res.statusCode, body, text: res.body, headers: res.headers };
  }

  get<T = any>(url: string, headers: Record<string, string> = {}): Promise<TestResponse<T>> {
    return this.request<T>({ method: 'GET', url, headers });
  }

  post<T = any>(
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ): Promise<TestResponse<T>> {
    return this.request<T>({ method: 'POST', url, payload: payload as InjectOptions['payload'], headers });
  }
}

export async function loginUser(
  ctx: AppContext,
  app: FastifyInstance,
  username: string,
  options: { admin?: boolean; role?: Role } = {},
): Promise<TestClient> {
  let user = await findOrCreateUser(
    ctx,
    {
      provider: 'local',
      providerUserId: username.toLowerCase(),
      handle: username,
      avatarUrl: '',
      email: `${username}@example.org`,
    },
    { grantAdmin: options.admin === true || options.role === 'admin' },
  );
  if (options.role && options.role !== user.role) {
    // A staff role as an admin's set_role gives it (the same columns, db/user-role.ts).
    await ctx.database.db.updateTable('users').set(roleColumns(options.role)).where('id', '=', user.id).execute();
    ctx.bus.publish('users');
    user = { ...user, ...roleColumns(options.role) };
  }
  const { token } = await createSession(ctx, user.id);
  return new TestClient(app, `ctf_session=${token}`, user);
}

/**
 * Builds the real app on a fresh database of the given kind. `env` overrides configuration
 * variables exactly as the environment would.
 */
export async function buildTestApp(
  kind: TestDatabaseKind = 'sqlite',
  env: Record<string, string> = {},
  options: {
    logStream?: { write(line: string): void };
    /** Rewrites the PostgreSQL URL the app connects to (a test's proxy in between). */
    databaseUrlVia?: (url: string) => string;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase(kind);
  const config = loadConfig({
    DATA_DIR: database.dataDir,
    PUBLIC_URL: TEST_ORIGIN,
    SESSION_SECRET: TEST_SECRET,
    LOG_LEVEL: 'silent',
    // A fixed window (over at the test clock's time) unless a test passes its own; '' for both
    // leaves it unset, as a new site's first start (event-state makes the window then).
    EVENT_START: TEST_EVENT_WINDOW.start,
    EVENT_END: TEST_EVENT_WINDOW.end,
    ...(database.databaseUrl
      ? { DATABASE_URL: options.databaseUrlVia?.(database.databaseUrl) ?? database.databaseUrl }
      : {}),
    ...env,
  });
  const clock = new TestClock();
  // With a log stream the app logs as configured (LOG_LEVEL in env), into the stream.
  const { app, ctx, routes } = await buildApp(
    config,
    options.logStream ? { clock, logStream: options.logStream } : { clock, logger: false },
  );
  await app.ready();
  return {
    app,
    ctx,
    routes,
    config,
    clock,
    database,
    login: (username, options) => loginUser(ctx, app, username, options),
    visitor: () => new TestClient(app, undefined, null),
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
