import {
  API_TOKEN_LIMITS,
  TOKEN_MESSAGES,
  TOKEN_SCOPES,
  tokenRuleFor,
  type TokenRule,
  type TokenScope,
} from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge, openSite } from '../../../test/compete.js';
import { connectTestDatabase, createTestDatabase, testDatabaseKinds } from '../../../test/databases.js';
import { registeredRoutes } from '../../../test/registered-routes.js';
import { connectDatabase } from '../../db/connect.js';
import { migrateToLatest, migrateUpTo } from '../../db/migrate.js';
import { sha256 } from '../../lib/crypto.js';

/**
 * Token scopes and lifetimes: a token does what its scopes and its user's role both allow, never
 * changes roles, admins, bans, settings, tokens or the account, and always ends. The route walk
 * holds every registered route to the one token table (contract api/token-scopes.ts).
 */

const TOKENS = '/api/user/tokens';
const DAY = 86_400_000;

/**
 * The routes that never take a personal token, and have no rule: the site's pages and files, the
 * OAuth round trip, the reference, the logo and the configured-token routes. A token sent to one
 * is refused as session-only (fail closed).
 */
const NO_TOKEN_ROUTES = [
  /^\/$/,
  /^\/(admin|admin\/panel|announcements|tools|discord|login|leaderboard|profile|compete|challenge|challenge_help|rate-challenge|rules|kali-setup-guide|reset-password)$/,
  /^\/\*$/,
  /^\/metrics$/,
  /^\/api\/auth\/(popup\.js|discord|github|oidc)(\/callback)?$/,
  // The mailed confirmation link: opened by a person's browser from the e-mail, never by a script.
  /^\/api\/auth\/email\/confirm$/,
  /^\/api\/(openapi\.json|docs)$/,
  /^\/api\/info\/logo$/,
];

for (const kind of testDatabaseKinds()) {
  describe(`API token scopes on ${kind}`, () => {
    let t: TestApp;
    beforeEach(async () => {
      t = await buildTestApp(kind);
    });
    afterEach(async () => {
      await t.close();
    });

    async function make(client: TestClient, body: Record<string, unknown>) {
      return client.post(TOKENS, { name: 'bot', ...body });
    }
    async function tokenOf(client: TestClient, scopes: TokenScope[]): Promise<string> {
      const res = await make(client, { scopes });
      expect(res.status, res.text).toBe(200);
      return res.body.token as string;
    }
    async function bearer(token: string, method: string, url: string, payload?: unknown) {
      const res = await t.app.inject({
        method: method as 'GET',
        url,
        headers: { authorization: `Bearer ${token}` },
        ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
      });
      const json = String(res.headers['content-type'] ?? '').includes('json') && res.body;
      return { status: res.statusCode, body: json ? JSON.parse(res.body) : undefined };
    }

    it('gives the scopes asked for, never more than the role; read and play by default', async () => {
      const player = await t.login('player');
      const author = await t.login('writer', { role: 'author' });
      const monitor = await t.login('watcher', { role: 'monitor' });
      const admin = await t.login('root', { admin: true });
      expect((await make(player, {})).status).toBe(200);
      for (const [client, refused] of [
        [player, ['admin']],
        [player, ['author']],
        [author, ['admin']],
        [monitor, ['author']],
      ] as const) {
        const res = await make(client, { scopes: ['read', ...refused] });
        expect(res.status).toBe(400);
        expect(res.body.message).toBe(
          `Your role (${client.user!.role}) cannot give a token the scope ${refused[0]}.`,
        );
      }
      expect((await make(player, { scopes: [] })).status).toBe(400);
      expect((await make(player, { scopes: ['root'] })).status).toBe(400);
      expect((await make(author, { scopes: ['author', 'read'] })).status).toBe(200);
      expect((await make(monitor, { scopes: ['admin'] })).status).toBe(200);
      expect((await make(admin, { scopes: [...TOKEN_SCOPES].reverse() })).status).toBe(200);
      const scopes = async (c: TestClient) =>
        ((await c.get(TOKENS)).body as { scopes: string[] }[]).map((x) => x.scopes);
      expect(await scopes(player)).toEqual([['read', 'play']]);
      expect(await scopes(author)).toEqual([['read', 'author']]);
      expect(await scopes(monitor)).toEqual([['admin']]);
      expect(await scopes(admin)).toEqual([[...TOKEN_SCOPES]]);
    });

    it('always expires: 90 days by default, at most 365', async () => {
      const ann = await t.login('ann');
      const now = t.clock.now().getTime();
      const at = (days: number) => new Date(now + days * DAY).toISOString();
      const over = await make(ann, { expiresAt: at(API_TOKEN_LIMITS.maxLifetimeDays) + '' });
      expect(over.status, over.text).toBe(200);
      const beyond = await make(ann, { expiresAt: new Date(now + 365 * DAY + 1000).toISOString() });
      expect(beyond.status).toBe(400);
      expect(beyond.body.message).toBe('A token lives at most 365 days: choose an earlier expiry.');
      await make(ann, { expiresAt: null });
      const listed = (await ann.get(TOKENS)).body as { expiresAt: string }[];
      expect(listed.map((x) => x.expiresAt)).toEqual([at(90), at(365)]);
      const token = (await make(ann, {})).body.token as string;
      t.clock.advance(90 * DAY - 1000);
      expect((await bearer(token, 'GET', '/api/user/info')).status).toBe(200);
      t.clock.advance(1000);
      expect((await bearer(token, 'GET', '/api/user/info')).status).toBe(401);
    });

    it('refuses a call outside its scopes, and changes nothing', async () => {
      await openSite(t);
      const c = await addChallenge(t);
      const ann = await t.login('ann');
      const readOnly = await tokenOf(ann, ['read']);
      const playOnly = await tokenOf(ann, ['play']);
      const flag = await bearer(readOnly, 'POST', '/api/ctf/submit-flag', {
        challenge_id: c.id,
        flag: c.flag,
      });
      expect(flag).toEqual({
        status: 403,
        body: { message: TOKEN_MESSAGES.outsideScopes, code: 'forbidden' },
      });
      expect(await t.ctx.database.db.selectFrom('solves').select('id').execute()).toEqual([]);
      expect((await bearer(playOnly, 'GET', '/api/user/info')).body.message).toBe(
        TOKEN_MESSAGES.outsideScopes,
      );
      const solved = await bearer(playOnly, 'POST', '/api/ctf/submit-flag', {
        challenge_id: c.id,
        flag: c.flag,
      });
      expect(solved.status, JSON.stringify(solved.body)).toBe(200);
      // An admin's read-and-play token reaches no admin route.
      const root = await t.login('root', { admin: true });
      const plain = await tokenOf(root, ['read', 'play']);
      expect((await bearer(plain, 'GET', '/api/admin/get_users')).body.message).toBe(
        TOKEN_MESSAGES.outsideScopes,
      );
      const author = await tokenOf(root, ['author']);
      expect((await bearer(author, 'GET', '/api/admin/ctf/fetch_challenges')).status).toBe(200);
      expect((await bearer(author, 'GET', '/api/admin/audit')).body.message).toBe(
        TOKEN_MESSAGES.outsideScopes,
      );
    });

    it('a leaked admin token with every scope changes no role, admin, ban, setting, token or account', async () => {
      const root = await t.login('root', { admin: true });
      const mallory = await t.login('mallory');
      const other = await t.login('deputy', { admin: true });
      const token = await tokenOf(root, [...TOKEN_SCOPES]);
      const before = await t.ctx.database.db
        .selectFrom('users')
        .select(['id', 'role', 'banned'])
        .orderBy('id')
        .execute();
      const calls: [string, string, unknown?][] = [
        ['POST', '/api/admin/set_role', { user_id: String(mallory.user!.id), role: 'admin' }],
        ['POST', '/api/admin/promote_admin', { username: 'mallory' }],
        ['POST', '/api/admin/remove_admin', { username: 'deputy' }],
        ['POST', '/api/admin/remove_user', { user_id: String(other.user!.id) }],
        ['POST', '/api/admin/moderate', { target: 'user', name: 'deputy', action: 'ban', reason: 'x' }],
        ['POST', '/api/admin/settings', { name: 'Owned' }],
        ['POST', '/api/admin/update_site_info', { activated: true }],
        ['POST', '/api/admin/divisions', { divisions: [] }],
        ['POST', TOKENS, { name: 'child', scopes: ['admin'] }],
        ['POST', `${TOKENS}/delete`, { token_id: '1' }],
        ['POST', '/api/user/division', { division: null }],
        ['GET', '/api/auth/logout'],
      ];
      for (const [method, url, payload] of calls) {
        const res = await bearer(token, method, url, payload);
        expect(res.status, `${method} ${url}`).toBe(403);
        expect(res.body.message, `${method} ${url}`).toBe(TOKEN_MESSAGES.sessionOnly);
      }
      expect(
        await t.ctx.database.db.selectFrom('users').select(['id', 'role', 'banned']).orderBy('id').execute(),
      ).toEqual(before);
      expect(await t.ctx.database.db.selectFrom('api_tokens').select('id').execute()).toHaveLength(1);
      // The same calls with the session still work (the route is not simply broken).
      expect(
        (await root.post('/api/admin/set_role', { user_id: String(mallory.user!.id), role: 'monitor' }))
          .status,
      ).toBe(200);
    });

    it('every registered route declares what a token needs, and a token without it is refused', async () => {
      const root = await t.login('root', { admin: true });
      const all = await tokenOf(root, [...TOKEN_SCOPES]);
      const without = new Map<TokenScope, string>();
      for (const scope of TOKEN_SCOPES)
        without.set(
          scope,
          await tokenOf(
            root,
            TOKEN_SCOPES.filter((s) => s !== scope),
          ),
        );
      const anonymous = new Set(t.routes.filter((r) => r.anonymous).map((r) => `${r.method} ${r.url}`));
      const undeclared: string[] = [];
      let checked = 0;
      for (const r of registeredRoutes(t.app)) {
        if (r.method === 'HEAD') continue;
        const rule: TokenRule | undefined = tokenRuleFor(r as { method: 'GET'; path: string });
        if (rule === undefined) {
          if (!NO_TOKEN_ROUTES.some((re) => re.test(r.path))) undeclared.push(`${r.method} ${r.path}`);
          continue;
        }
        // The cached public reads never look at a token (everyone gets a visitor's answer), nor
        // does the team-flag service route, which takes its own (ADMIN_API_TOKEN).
        if (anonymous.has(`${r.method} ${r.path}`)) continue;
        if (r.path === '/api/admin/ctf/team-flag') continue;
        const url = r.path.replace('*', 'x.zip');
        const payload = r.method === 'POST' ? {} : undefined;
        const token = rule === 'session' ? all : without.get(rule)!;
        const res = await bearer(token, r.method, url, payload);
        const expected = rule === 'session' ? TOKEN_MESSAGES.sessionOnly : TOKEN_MESSAGES.outsideScopes;
        expect(res.status, `${r.method} ${r.path}`).toBe(403);
        // (The rating call prefixes every refusal with 'Error: ', as the spec's page expects.)
        expect(String(res.body?.message).replace(/^Error: /, ''), `${r.method} ${r.path}`).toBe(expected);
        checked += 1;
      }
      expect(undeclared).toEqual([]);
      expect(checked).toBeGreaterThan(80);
      // A route the table lacks refuses every token.
      const page = await bearer(all, 'GET', '/profile');
      expect(page.status).toBe(403);
      expect(page.body.message).toBe(TOKEN_MESSAGES.sessionOnly);
    });

    it('audits creating and revoking a token, never the token itself', async () => {
      const ann = await t.login('ann');
      const made = await make(ann, { name: 'ci', scopes: ['read'] });
      expect((await ann.post(`${TOKENS}/delete`, { token_id: made.body._id })).status).toBe(200);
      const rows = await t.ctx.database.db
        .selectFrom('audit_log')
        .select(['admin_name', 'action', 'target', 'details'])
        .orderBy('id')
        .execute();
      const expires = new Date(t.clock.now().getTime() + 90 * DAY).toISOString();
      expect(rows).toEqual([
        {
          admin_name: 'ann',
          action: 'token.create',
          target: `API token 'ci' (#${made.body._id})`,
          details: JSON.stringify({ scopes: ['read'], expires_at: expires }),
        },
        {
          admin_name: 'ann',
          action: 'token.revoke',
          target: `API token 'ci' (#${made.body._id})`,
          details: '{}',
        },
      ]);
      expect(JSON.stringify(rows)).not.toContain((made.body.token as string).slice(4));
    });
  });

  describe(`the upgrade to token scopes on ${kind}`, () => {
    it('makes existing tokens read and play (and author for authors), ending within 90 days', async () => {
      const database = await createTestDatabase(kind, { empty: true });
      const handle = await connectTestDatabase(database);
      try {
        const db = handle.db;
        await migrateUpTo(db as never, '0018_w_writeups');
        const user = (name: string, role: string) =>
          db
            .insertInto('users')
            .values({
              username: name,
              username_key: name,
              avatar_url: '',
              email: '',
              created_at: '2026-01-01T00:00:00.000Z',
              role: role as 'player',
              is_admin: role === 'admin' ? 1 : 0,
            } as never)
            .returning('id')
            .executeTakeFirstOrThrow();
        const ids = {
          player: (await user('p', 'player')).id,
          author: (await user('a', 'author')).id,
          admin: (await user('r', 'admin')).id,
        };
        const soon = new Date(Date.now() + 10 * DAY).toISOString();
        const token = (userId: number, name: string, expires: string | null) =>
          sql_insert(db, {
            user_id: userId,
            name,
            token_hash: sha256(name),
            created_at: '2026-01-01T00:00:00.000Z',
            expires_at: expires,
          });
        await token(ids.player, 'player-forever', null);
        await token(ids.author, 'author-ci', '2099-01-01T00:00:00.000Z');
        await token(ids.admin, 'admin-soon', soon);
        const startedAt = Date.now();
        await migrateToLatest(db as never);
        const doneAt = Date.now();
        const rows = await db
          .selectFrom('api_tokens')
          .select(['name', 'scopes', 'expires_at'])
          .orderBy('id')
          .execute();
        const end = Date.parse(rows[0]!.expires_at!);
        expect(rows.map((r) => [r.name, r.scopes])).toEqual([
          ['player-forever', 'read play'],
          ['author-ci', 'read play author'],
          ['admin-soon', 'read play'],
        ]);
        expect(end).toBeGreaterThanOrEqual(startedAt + 90 * DAY);
        expect(end).toBeLessThanOrEqual(doneAt + 90 * DAY);
        expect(rows[1]!.expires_at).toBe(rows[0]!.expires_at);
        expect(rows[2]!.expires_at).toBe(soon);
      } finally {
        await handle.close();
        await database.drop();
      }
    });
  });
}

/** A token row as the schema before scopes had it. */
async function sql_insert(
  db: Awaited<ReturnType<typeof connectDatabase>>['db'],
  row: { user_id: number; name: string; token_hash: string; created_at: string; expires_at: string | null },
): Promise<void> {
  await db
    .insertInto('api_tokens')
    .values(row as never)
    .execute();
}
