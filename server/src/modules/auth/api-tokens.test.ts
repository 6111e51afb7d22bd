import { API_TOKEN_LIMITS, MESSAGES, TOKEN_MESSAGES, WRONG_FLAG_LIMIT } from '@ctf/contract';
import type { InjectOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge, openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { sha256 } from '../../lib/crypto.js';
import { TOKEN_USE_WRITE_INTERVAL_MS } from './api-tokens.service.js';

const TOKENS = '/api/user/tokens';

for (const kind of testDatabaseKinds()) {
  describe(`personal API tokens on ${kind}`, () => {
    let t: TestApp;
    beforeEach(async () => {
      t = await buildTestApp(kind);
    });
    afterEach(async () => {
      await t.close();
    });

    async function newToken(client: TestClient, name = 'bot', expiresAt?: string): Promise<string> {
      const res = await client.post(TOKENS, { name, ...(expiresAt ? { expiresAt } : {}) });
      expect(res.status, res.text).toBe(200);
      return res.body.token as string;
    }

    /** A script's request: the bearer token, no cookie, no Origin (unless given). */
    async function bearer(token: string, opts: InjectOptions) {
      const res = await t.app.inject({
        ...opts,
        headers: { authorization: `Bearer ${token}`, ...(opts.headers as Record<string, string>) },
      });
      return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as any) : undefined, res };
    }
    const info = (token: string) => bearer(token, { method: 'GET', url: '/api/user/info' });

    it('shows a token once, lists it without it, and stores only its hash', async () => {
      const ann = await t.login('ann');
      const created = await ann.post(TOKENS, { name: '  ci sync ' });
      expect(created.status).toBe(200);
      expect(created.headers['cache-control']).toBe('no-store');
      expect(created.body).toEqual({ _id: expect.stringMatching(/^\d+$/), token: expect.any(String) });
      const token = created.body.token as string;
      expect(token).toMatch(/^ctf_[A-Za-z0-9_-]{43}$/);

      const list = await ann.get(TOKENS);
      expect(list.body).toEqual([
        {
          _id: created.body._id,
          name: 'ci sync',
          createdAt: t.clock.now().toISOString(),
          // No expiry asked: 90 days; no scopes asked: read and play.
          expiresAt: new Date(t.clock.now().getTime() + 90 * 86_400_000).toISOString(),
          scopes: ['read', 'play'],
          lastUsedAt: null,
        },
      ]);
      expect(list.text).not.toContain(token.slice(4));
      const rows = await t.ctx.database.db.selectFrom('api_tokens').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.token_hash).toBe(sha256(token));
      expect(JSON.stringify(rows)).not.toContain(token.slice(4));
      // Another user sees none of ann's tokens.
      expect((await (await t.login('bob')).get(TOKENS)).body).toEqual([]);
    });

    it('authenticates any call as its user, without a cookie or an Origin', async () => {
      const ann = await t.login('ann');
      const token = await newToken(ann);
      expect((await info(token)).body.username).toBe('ann');
      expect((await bearer(token, { method: 'GET', url: '/api/authenticated' })).status).toBe(200);
      // A POST from a script: no Origin, yet no CSRF refusal, since no cookie rides along.
      const created = await bearer(token, {
        method: 'POST',
        url: '/api/team/create',
        payload: { team_name: 'Scripted' },
      });
      expect(created.status).toBe(200);
      expect((await ann.get('/api/user/info')).body.team).toBe('Scripted');
      // The scheme's name is case-insensitive, as RFC 9110 says.
      expect(
        (
          await bearer(token, {
            method: 'GET',
            url: '/api/authenticated',
            headers: { authorization: `bearer ${token}` },
          })
        ).status,
      ).toBe(200);
    });

    it('with a cookie beside it: the token decides who, and the Origin check still applies', async () => {
      const ann = await t.login('ann');
      const bob = await t.login('bob');
      const token = await newToken(ann);
      const both = { cookie: bob.cookie!, authorization: `Bearer ${token}` };
      const who = await t.app.inject({ method: 'GET', url: '/api/user/info', headers: both });
      expect(JSON.parse(who.body).username).toBe('ann');
      const noOrigin = await t.app.inject({
        method: 'POST',
        url: '/api/team/create',
        headers: both,
        payload: { team_name: 'Forged' },
      });
      expect(noOrigin.statusCode).toBe(403);
      expect(await t.ctx.database.db.selectFrom('teams').select('id').execute()).toEqual([]);
      // A bad token is a 401, never a fall-back to the cookie's user.
      const bad = await t.app.inject({
        method: 'GET',
        url: '/api/user/info',
        headers: { cookie: bob.cookie!, authorization: `Bearer ctf_${'A'.repeat(43)}` },
      });
      expect(bad.statusCode).toBe(401);
      expect(bad.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    });

    it('refuses made-up tokens, and leaves other bearer tokens to their own routes', async () => {
      for (const made of [`ctf_${'A'.repeat(43)}`, 'ctf_', `ctf_${'x'.repeat(500)}`]) {
        expect((await info(made)).status).toBe(401);
        const post = await bearer(made, {
          method: 'POST',
          url: '/api/team/create',
          payload: { team_name: 'X' },
        });
        expect(post.status).toBe(401);
      }
      // Not a personal token (no ctf_ prefix): the caller is a visitor, and a POST needs an Origin.
      expect((await info('some-other-token')).body).toBeNull();
      const post = await bearer('some-other-token', {
        method: 'POST',
        url: '/api/team/create',
        payload: { team_name: 'X' },
      });
      expect(post.status).toBe(403);
    });

    it('a revoked token stops at the next request; only its owner revokes it', async () => {
      const ann = await t.login('ann');
      const bob = await t.login('bob');
      const token = await newToken(ann);
      const other = await newToken(ann, 'other');
      const [, first] = (await ann.get(TOKENS)).body as { _id: string }[];
      expect((await info(token)).status).toBe(200);
      const notHis = await bob.post(`${TOKENS}/delete`, { token_id: first!._id });
      expect(notHis.status).toBe(404);
      expect((await info(token)).status).toBe(200);
      const revoked = await ann.post(`${TOKENS}/delete`, { token_id: first!._id });
      expect(revoked.status).toBe(200);
      expect(revoked.body).toEqual({ message: 'Token revoked' });
      expect((await info(token)).status).toBe(401);
      expect((await info(other)).status).toBe(200);
      expect(((await ann.get(TOKENS)).body as { name: string }[]).map((x) => x.name)).toEqual(['other']);
      expect((await ann.post(`${TOKENS}/delete`, { token_id: first!._id })).status).toBe(404);
    });

    it('a banned user, a member of a banned team, or a removed user is refused at once', async () => {
      const root = await t.login('root', { admin: true });
      const ann = await t.login('ann');
      const bob = await t.login('bob');
      const carol = await t.login('carol');
      const [annToken, bobToken, carolToken] = [
        await newToken(ann),
        await newToken(bob),
        await newToken(carol),
      ];
      expect((await bob.post('/api/team/create', { team_name: 'Blue' })).status).toBe(200);
      for (const token of [annToken, bobToken, carolToken]) expect((await info(token)).status).toBe(200);

      const banned = await root.post('/api/admin/moderate', {
        target: 'user',
        name: 'ann',
        action: 'ban',
        reason: 'abuse',
      });
      expect(banned.status, banned.text).toBe(200);
      expect((await info(annToken)).status).toBe(401);
      const teamBan = await root.post('/api/admin/moderate', {
        target: 'team',
        name: 'Blue',
        action: 'ban',
        reason: 'abuse',
      });
      expect(teamBan.status, teamBan.text).toBe(200);
      expect((await info(bobToken)).status).toBe(401);
      expect((await root.post('/api/admin/remove_user', { user_id: String(carol.user!.id) })).status).toBe(
        200,
      );
      expect((await info(carolToken)).status).toBe(401);
      expect(
        await t.ctx.database.db
          .selectFrom('api_tokens')
          .select('user_id')
          .where('user_id', '=', carol.user!.id)
          .execute(),
      ).toEqual([]);
    });

    it('carries its user’s role: admin routes follow the role, also when it changes', async () => {
      const ann = await t.login('ann', { admin: true });
      const root = await t.login('root', { admin: true });
      const made = await ann.post(TOKENS, { name: 'ops', scopes: ['read', 'admin'] });
      const token = made.body.token as string;
      const adminCheck = () => bearer(token, { method: 'GET', url: '/api/admin/get_users' });
      expect((await adminCheck()).status).toBe(200);
      expect((await root.post('/api/admin/remove_admin', { username: 'ann' })).status).toBe(200);
      // The scope stays on the token, but the role it needs is gone.
      const after = await adminCheck();
      expect(after.status).toBe(403);
      expect(after.body.message).toBe(MESSAGES.forbidden);
      const player = await newToken(await t.login('bob'));
      expect((await bearer(player, { method: 'GET', url: '/api/admin/get_users' })).status).toBe(403);
    });

    it('ends at its expiry; a past expiry is refused', async () => {
      const ann = await t.login('ann');
      const past = await ann.post(TOKENS, {
        name: 'old',
        expiresAt: new Date(t.clock.now().getTime() - 1000).toISOString(),
      });
      expect(past.status).toBe(400);
      expect(past.body.message).toBe('expiresAt must be in the future');
      expect((await ann.post(TOKENS, { name: 'bad', expiresAt: 'tomorrow' })).status).toBe(400);
      const at = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
      const token = await newToken(ann, 'hour', at);
      expect((await ann.get(TOKENS)).body[0].expiresAt).toBe(at);
      expect((await info(token)).status).toBe(200);
      t.clock.advance(3_600_000 - 1000);
      expect((await info(token)).status).toBe(200);
      t.clock.advance(1000);
      expect((await info(token)).status).toBe(401);
    });

    it('holds the limits: the name’s length and the tokens per user (an expired one frees its place)', async () => {
      const ann = await t.login('ann');
      expect((await ann.post(TOKENS, { name: '   ' })).status).toBe(400);
      const long = await ann.post(TOKENS, { name: 'x'.repeat(API_TOKEN_LIMITS.nameMax + 1) });
      expect(long.status).toBe(400);
      await newToken(ann, 'x'.repeat(API_TOKEN_LIMITS.nameMax));
      const soon = new Date(t.clock.now().getTime() + 60_000).toISOString();
      await newToken(ann, 'soon', soon);
      for (let i = 2; i < API_TOKEN_LIMITS.perUser; i++) await newToken(ann, `t${i}`);
      const over = await ann.post(TOKENS, { name: 'one more' });
      expect(over.status).toBe(409);
      expect(over.body.message).toBe(
        `You already have ${API_TOKEN_LIMITS.perUser} API tokens: revoke one before creating another.`,
      );
      t.clock.advance(60_000);
      await newToken(ann, 'one more');
      const names = ((await ann.get(TOKENS)).body as { name: string }[]).map((x) => x.name);
      expect(names).toHaveLength(API_TOKEN_LIMITS.perUser);
      expect(names).not.toContain('soon');
    });

    it('records its last use at most once a minute', async () => {
      const ann = await t.login('ann');
      const token = await newToken(ann);
      const lastUsed = async () => (await ann.get(TOKENS)).body[0].lastUsedAt as string | null;
      const first = t.clock.now().toISOString();
      await info(token);
      expect(await lastUsed()).toBe(first);
      t.clock.advance(TOKEN_USE_WRITE_INTERVAL_MS - 1000);
      for (let i = 0; i < 5; i++) await info(token);
      expect(await lastUsed()).toBe(first);
      t.clock.advance(1000);
      await info(token);
      expect(await lastUsed()).toBe(t.clock.now().toISOString());
    });

    it('can neither create nor revoke a token (a signed-in session does), but may list them', async () => {
      const ann = await t.login('ann');
      const token = await newToken(ann);
      const minted = await bearer(token, { method: 'POST', url: TOKENS, payload: { name: 'child' } });
      expect(minted.status).toBe(403);
      expect(minted.body.message).toBe(TOKEN_MESSAGES.sessionOnly);
      const list = await bearer(token, { method: 'GET', url: TOKENS });
      expect(list.body).toHaveLength(1);
      const revoked = await bearer(token, {
        method: 'POST',
        url: `${TOKENS}/delete`,
        payload: { token_id: list.body[0]._id },
      });
      expect(revoked.status).toBe(403);
      expect(revoked.body.message).toBe(TOKEN_MESSAGES.sessionOnly);
      expect((await info(token)).status).toBe(200);
      expect((await ann.get(TOKENS)).body).toHaveLength(1);
    });

    it('shares its user’s rate limits with their browser session', async () => {
      await openSite(t);
      const c = await addChallenge(t);
      const ann = await t.login('ann');
      const token = await newToken(ann);
      for (let i = 0; i < WRONG_FLAG_LIMIT; i++) {
        const via =
          i % 2 === 0
            ? ann.post('/api/ctf/submit-flag', { flag: `wrong-${i}`, challenge_id: c.id })
            : bearer(token, {
                method: 'POST',
                url: '/api/ctf/submit-flag',
                payload: { flag: `wrong-${i}`, challenge_id: c.id },
              });
        expect((await via).body.message).toBe(MESSAGES.incorrectFlag);
      }
      const limited = await bearer(token, {
        method: 'POST',
        url: '/api/ctf/submit-flag',
        payload: { flag: c.flag, challenge_id: c.id },
      });
      expect(limited.status).toBe(429);
    });
  });
}
