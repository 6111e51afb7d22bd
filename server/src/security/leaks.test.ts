import { adminApi, authApi, challengesApi } from '@ctf/contract';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringsIn } from '../../test/answer-checks.js';
import type { TestClient, TestResponse } from '../../test/build-test-app.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { canary, canaryWorld } from '../../test/canary-world.js';
import { WORLD_FILE } from '../../test/security-world.js';
import { arbitraryFor, contractEndpoints } from '../../test/zod-arbitrary.js';
import { WEB_ROUTES } from '../plugins/web-app.js';
import { addChallenge } from '../../test/compete.js';
import { flushSubmissionLog } from '../modules/submission-log/submission-log.service.js';

/**
 * Secrets never leave: with unique canaries planted (SESSION_SECRET, every flag, every session
 * token, the OAuth client secret and PKCE verifier, other people's e-mail addresses, join-request
 * checksums; and issue 18's: every competitor's per-team flags and their bases, the admin API
 * token, a wrong attempt's text, a client address given through the trusted proxy, an audit
 * entry's detail), every non-admin route is driven as a visitor and as four kinds of participant,
 * and no answer (body or header) carries a canary it should not: a competitor sees only its own
 * per-team flag, on the challenge built to offer it. The admin routes answer them nothing either.
 * The server's log lines carry none at all: leaks.logs.test.ts.
 */

interface Principal {
  name: string;
  client: TestClient | null;
}

for (const kind of testDatabaseKinds()) {
  describe(`secrets never leak on ${kind}`, () => {
    const planted = canaryWorld(kind);
    const { fake, secrets, flags, unsolved, wrongGuess } = planted;

    it('no answer to anyone but the leader carries a checksum; no answer carries a flag, a secret or another person’s token or e-mail', async () => {
      const { w } = planted;
      const { t } = w;
      const db = t.ctx.database.db;
      await db
        .insertInto('challenges')
        .values({
          name: 'Unsolved',
          description: '',
          category: 'General',
          difficulty: 'Easy',
          written_by: 'x',
          points: 100,
          is_active: 1,
          max_attempts: null,
          release_at: null,
          created_at: t.clock.now().toISOString(),
          updated_at: t.clock.now().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then(({ id }) =>
          db
            .insertInto('challenge_flags')
            .values({ challenge_id: id, position: 0, type: 'static', content: unsolved })
            .execute(),
        );
      t.ctx.bus.publish('challenges');

      // Issue 18's canaries. Per-team flags of every competitor (read by the admin: audited), on a
      // challenge whose page offers each its own and on one that offers none.
      const bases = {
        page: `flag{${canary('per-team-base-page')}}`,
        hidden: `flag{${canary('per-team-base')}}`,
      };
      const onPage = await addChallenge(t, {
        name: 'Per Team Page',
        flag: bases.page,
        per_team: true,
        per_team_on_page: true,
      });
      const offPage = await addChallenge(t, { name: 'Per Team', flag: bases.hidden, per_team: true });
      const reveal = async (id: number, competitor: string) => {
        const res = await w.admin.post('/api/admin/ctf/reveal_team_flag', { challenge_id: id, competitor });
        expect(res.status, res.text).toBe(200);
        return res.body.flag as string;
      };
      const competitorOf: Record<string, string> = {
        leader: 'Fuzz Team',
        member: 'Fuzz Team',
        'other team leader': 'Other Team',
        asker: 'fuzz-asker',
      };
      const perTeam: Record<string, string> = {};
      for (const competitor of ['Fuzz Team', 'Other Team', 'fuzz-asker', 'fuzz-admin2']) {
        perTeam[`page flag of ${competitor}`] = await reveal(onPage.id, competitor);
        perTeam[`per-team flag of ${competitor}`] = await reveal(offPage.id, competitor);
      }
      // A wrong attempt's text, from an address given through the trusted proxy; another team's
      // per-team flag (a signal); an audit entry's detail (an announcement's body before an edit).
      const attemptText = `flag{${canary('wrong-attempt')}}`;
      const hex = () => randomBytes(2).toString('hex').replace(/^0+/, '') || 'c0de';
      const address = `2001:db8:${hex()}:${hex()}:${hex()}:${hex()}:${hex()}:${hex()}`;
      const auditDetail = canary('audit-detail');
      expect(
        (
          await w.member.post(
            '/api/ctf/submit-flag',
            { challenge_id: w.ids.active, flag: attemptText },
            { 'x-forwarded-for': address },
          )
        ).body.message,
      ).toBe('Incorrect Flag!');
      await w.other.post('/api/ctf/submit-flag', {
        challenge_id: offPage.id,
        flag: perTeam['per-team flag of Fuzz Team'],
      });
      const posted = await w.admin.post('/api/admin/announcements/create', {
        title: 'Leaks',
        body: auditDetail,
      });
      expect(
        (
          await w.admin.post('/api/admin/announcements/update', {
            _id: posted.body._id,
            title: 'Leaks',
            body: 'Nothing to see.',
            pinned: false,
          })
        ).status,
      ).toBe(200);
      await flushSubmissionLog(t.ctx);
      // The controls: admins see each of them where they belong.
      const log = (await w.admin.get('/api/admin/submissions?limit=200')).text;
      expect(log).toContain(attemptText);
      expect(log).toContain(address);
      expect((await w.admin.get('/api/admin/audit?limit=200')).text).toContain(auditDetail);
      expect((await w.admin.get('/api/admin/signals')).text).toContain('other_team_flag');
      const memberPage = await w.member.post('/api/ctf/challenge', { challenge_id: onPage.id });
      expect(memberPage.body.team_flag).toBe(perTeam['page flag of Fuzz Team']);

      const principals: Principal[] = [
        { name: 'visitor', client: null },
        { name: 'asker', client: w.asker },
        { name: 'member', client: w.member },
        { name: 'other team leader', client: w.other },
        { name: 'leader', client: w.leader },
      ];
      const emails = new Map<string, string>();
      for (const p of principals.filter((x) => x.client)) {
        const email = `${canary('mail')}@example.org`;
        emails.set(p.name, email);
        await db.updateTable('users').set({ email }).where('id', '=', p.client!.user!.id).execute();
      }
      await db
        .updateTable('users')
        .set({ email: `${canary('admin-mail')}@example.org` })
        .where('id', '=', w.admin.user!.id)
        .execute();
      t.ctx.bus.publish('users');
      // An OAuth login in flight: its PKCE verifier is stored, and must go to the provider only.
      const started = await t.app.inject({ method: 'GET', url: '/api/auth/github' });
      expect(started.statusCode).toBe(302);
      const verifier = (await db.selectFrom('oauth_states').select('code_verifier').executeTakeFirstOrThrow())
        .code_verifier;
      const tokenOf = (c: TestClient) => c.cookie!.replace(/^ctf_session=/, '');

      const always = {
        ...secrets,
        flagActive: flags.active,
        flagInactive: flags.inactive,
        flagUnsolved: unsolved,
        wrongGuess,
        attemptText,
        address,
        auditDetail,
        perTeamBasePage: bases.page,
        perTeamBase: bases.hidden,
        verifier,
        adminToken: tokenOf(w.admin),
        adminEmail: (
          await db
            .selectFrom('users')
            .select('email')
            .where('id', '=', w.admin.user!.id)
            .executeTakeFirstOrThrow()
        ).email,
      };
      const forbiddenFor = (p: Principal): Record<string, string> => {
        const own = p.client ? tokenOf(p.client) : null;
        const out: Record<string, string> = { ...always };
        for (const q of principals) {
          if (!q.client || q.name === p.name) continue;
          out[`${q.name} token`] = tokenOf(q.client);
          out[`${q.name} email`] = emails.get(q.name)!;
        }
        if (p.name !== 'leader') out.checksum = w.checksum;
        // Every per-team flag but the competitor's own on the page that offers it.
        for (const [what, flag] of Object.entries(perTeam))
          if (what !== `page flag of ${competitorOf[p.name]}`) out[what] = flag;
        if (own) delete out[Object.keys(out).find((k) => out[k] === own)!];
        return out;
      };

      const expectClean = (p: Principal, res: TestResponse, request: string, sent: unknown) => {
        const echoed = new Set(stringsIn(sent));
        const text = `${JSON.stringify(res.headers)}\n${res.text}`;
        for (const [what, secret] of Object.entries(forbiddenFor(p))) {
          if (echoed.has(secret)) continue; // the caller's own input coming back is no leak
          expect(text.includes(secret), `${p.name}: ${request} leaked the ${what}`).toBe(false);
        }
      };

      // The controls: the canaries are where they belong, so the scans below can see them.
      expect((await w.leader.get('/api/team/info')).text).toContain(w.checksum);
      expect((await w.admin.get(adminApi.fetchChallenges.path)).text).toContain(flags.inactive);
      // Not even an admin sees a checksum: only the leader accepts.
      expect((await w.admin.get(adminApi.getTeams.path)).text).not.toContain(w.checksum);
      const endpoints = contractEndpoints().filter(
        (e) => !e.endpoint.path.startsWith('/api/admin/') || e.endpoint === authApi.adminAuthenticated,
      );
      expect(endpoints.length).toBeGreaterThanOrEqual(18);
      const extraGets = [
        ...WEB_ROUTES,
        '/profile?mode=1',
        '/no-such-page',
        '/api/no-such-call',
        '/api/auth/popup.js',
        '/api/auth/github',
        '/api/auth/discord',
        `${challengesApi.DOWNLOAD_PATH_PREFIX}${WORLD_FILE}`,
        `${challengesApi.DOWNLOAD_PATH_PREFIX}..%2fctf.sqlite`,
        '/tools',
        '/discord',
      ];
      const hints = {
        ...w.hints,
        flag: [flags.active, unsolved, wrongGuess, flags.inactive, ...Object.values(perTeam)],
        challenge_id: [...(w.hints.challenge_id ?? []), onPage.id, offPage.id],
      };
      // The admin routes (session or token) answer non-admins nothing of it either.
      const adminGets = [...adminApi.ADMIN_ENDPOINTS, ...adminApi.TOKEN_ENDPOINTS]
        .filter((e) => e.method === 'GET')
        .map((e) => `${e.path}?challenge=${offPage.id}&team=Fuzz%20Team&q=CANARY`);
      for (const p of principals) {
        const c = p.client ?? w.t.visitor();
        for (const { key, endpoint } of endpoints) {
          if (endpoint === authApi.logout) continue; // driven last
          if (endpoint.method === 'GET' || !endpoint.body) {
            expectClean(p, await c.get(endpoint.path), key, undefined);
            continue;
          }
          const bodies = fc.sample(arbitraryFor(endpoint.body, hints), { numRuns: 6, seed: 11 });
          for (const body of bodies) {
            const res = await c.post(endpoint.path, body);
            expect(res.status, `${p.name} ${key}`).toBeLessThan(500);
            expectClean(p, res, `${key} ${String(JSON.stringify(body)).slice(0, 120)}`, body);
          }
        }
        for (const url of extraGets) expectClean(p, await c.get(url), `GET ${url}`, undefined);
        for (const url of adminGets) {
          expectClean(p, await c.get(url), `GET ${url}`, undefined);
          const wrong = { authorization: `Bearer ${secrets.adminApiToken.slice(0, -1)}x` };
          expectClean(p, await c.get(url, wrong), `GET ${url} (wrong token)`, undefined);
        }
        // The right flag of an unsolved challenge, a wrong guess, and the detail pages.
        for (const body of [
          { challenge_id: w.ids.active, flag: wrongGuess },
          { challenge_id: w.ids.active, flag: flags.active },
          { challenge_id: w.ids.inactive, flag: flags.inactive },
        ]) {
          expectClean(p, await c.post('/api/ctf/submit-flag', body), `submit ${body.challenge_id}`, body);
        }
        for (const id of [w.ids.active, w.ids.inactive, onPage.id, offPage.id]) {
          expectClean(p, await c.post('/api/ctf/challenge', { challenge_id: id }), `detail ${id}`, undefined);
        }
      }
      // A whole OAuth login through the fake provider, and a failed one, as a visitor.
      fake.nextProfile = { id: '7001', login: 'newcomer', email: 'newcomer@example.org' };
      const start = await t.app.inject({ method: 'GET', url: '/api/auth/github' });
      const state = start.cookies.find((x) => x.name === 'ctf_oauth_state')!.value;
      const back = new URL(
        (await fetch(start.headers.location as string, { redirect: 'manual' })).headers.get('location')!,
      );
      const login = await t.app.inject({
        method: 'GET',
        url: back.pathname + back.search,
        headers: { cookie: `ctf_oauth_state=${state}` },
      });
      expect(login.body).toContain('OAUTH_SUCCESS');
      const visitor = principals[0]!;
      expectClean(
        visitor,
        { status: login.statusCode, text: login.body, headers: login.headers, body: undefined },
        'oauth callback',
        undefined,
      );
      const start2 = await t.app.inject({ method: 'GET', url: '/api/auth/github' });
      const state2 = start2.cookies.find((x) => x.name === 'ctf_oauth_state')!.value;
      const failed = await t.app.inject({
        method: 'GET',
        url: `/api/auth/github/callback?code=forged-code&state=${state2}`,
        headers: { cookie: `ctf_oauth_state=${state2}` },
      });
      expect(failed.body).toContain('OAUTH_ERROR');
      expectClean(
        visitor,
        { status: failed.statusCode, text: failed.body, headers: failed.headers, body: undefined },
        'failed oauth callback',
        undefined,
      );
      for (const p of principals)
        if (p.client) expectClean(p, await p.client.get(authApi.logout.path), 'logout', undefined);
    });
  });
}
