import { mayCall, type Role } from '@ctf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient, TestResponse } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { ownChallenge } from '../../../test/compete.js';
import { startedEvent, type StartedEvent } from '../../../test/fixtures.js';
import { flushSubmissionLog } from '../submission-log/submission-log.service.js';

/**
 * Issue 31: no flag, per-team flag or e-mail address in any answer a monitor or an author
 * receives. Every GET route the app registers (admin ones and the ones with an admin variant:
 * user and team info, the challenge list, the leaderboard, the graph) and the challenge details
 * are called as each role, and every answer is searched for the known flags and addresses. The
 * same walk as an admin must find them, so the search cannot pass by finding nothing anywhere.
 * An author reads the flags of the challenges it owns (the editor's list and the challenge.yml
 * export: docs/decisions/0011-staff-roles.md, 0014-least-privilege.md), and nowhere else: not
 * those of any other challenge, anywhere.
 */

/** Routes that cannot be walked by a plain GET: the event stream, logout, OAuth, parameters. */
const UNWALKABLE = /^\/api\/(events|auth\/logout|auth\/(github|discord)(\/|$))|[:*]/;
const AUTHORING = new Set(['/api/admin/ctf/fetch_challenges', '/api/admin/ctf/export']);

for (const kind of testDatabaseKinds()) {
  describe(`what staff roles read on ${kind}`, () => {
    let t: StartedEvent<'alice' | 'bob', 'boss', 'plain' | 'team', 'Red' | 'Blue'>;
    let clients: Record<'monitor' | 'author' | 'admin', TestClient>;
    let emails: string[];
    let teamFlags: string[];
    let challengeFlags: string[];

    beforeAll(async () => {
      t = await startedEvent({
        kind,
        admins: ['boss'],
        users: ['alice', 'bob'],
        teams: { Red: ['alice'], Blue: ['bob'] },
        challenges: {
          plain: { name: 'Plain', flag: 'flag{leak_plain_3f9a}' },
          team: { name: 'Per team', flag: 'flag{leak_base_77c1}', per_team: true, per_team_on_page: true },
        },
      });
      clients = {
        admin: t.admin,
        monitor: await t.login('watcher', { role: 'monitor' }),
        author: await t.login('writer', { role: 'author' }),
      };
      const reveal = async (competitor: string) => {
        const res = await t.admin.post('/api/admin/ctf/reveal_team_flag', {
          challenge_id: String(t.challenges.team.id),
          competitor,
        });
        expect(res.status).toBe(200);
        return res.body.flag as string;
      };
      teamFlags = [await reveal('Red'), await reveal('Blue')];
      // A per-team challenge's base flag is its static flag: nobody's own (the server's key derives those).
      challengeFlags = ['flag{leak_plain_3f9a}', 'flag{leak_base_77c1}'];
      // A solve, and Bob sending Red's own flag: the submission log and the signals hold it.
      await t.solve(t.users.alice, t.challenges.plain);
      await t.submit(t.users.bob, t.challenges.team, teamFlags[0]);
      await t.submit(t.users.bob, t.challenges.plain, 'flag{leak_plain_3f9a_typo}');
      await flushSubmissionLog(t.ctx);
      // Everyone's but the reader's own (its profile, GET /api/user/info, shows it its own address).
      emails = ['alice', 'bob', 'boss'].map((n) => `${n}@example.org`);
    });
    afterAll(async () => {
      await t.close();
    });

    /** Every answer the role gets from the walk, by request. */
    async function walk(role: Role): Promise<Map<string, TestResponse>> {
      const client = clients[role as keyof typeof clients];
      const answers = new Map<string, TestResponse>();
      const gets = t.routes.filter((r) => r.method === 'GET' && !UNWALKABLE.test(r.url)).map((r) => r.url);
      for (const url of new Set(gets)) answers.set(`GET ${url}`, await client.get(url));
      for (const c of [t.challenges.plain, t.challenges.team]) {
        answers.set(`detail ${c.id}`, await client.post('/api/ctf/challenge', { challenge_id: c.id }));
      }
      answers.set('search', await client.get('/api/admin/submissions?q=flag'));
      answers.set('csv search', await client.get('/api/admin/submissions.csv?q=leak'));
      return answers;
    }

    const found = (answers: Map<string, TestResponse>, secrets: string[], skip = new Set<string>()) =>
      [...answers]
        .filter(([key]) => !skip.has(key.replace(/^GET /, '')))
        .flatMap(([key, res]) => secrets.filter((s) => res.text.includes(s)).map((s) => `${key}: ${s}`));

    it('an admin reads every flag and address (the search finds them)', async () => {
      const answers = await walk('admin');
      for (const secret of [...emails, ...teamFlags.slice(0, 1), ...challengeFlags])
        expect(found(answers, [secret]), secret).not.toEqual([]);
    });

    it('a monitor reads the play but never a flag, a per-team flag or an e-mail address', async () => {
      const answers = await walk('monitor');
      expect(found(answers, [...emails, 'writer@example.org', ...teamFlags, ...challengeFlags])).toEqual([]);
      // It did read what it may: the lists, the log (without the submitted text), the signals.
      const users = answers.get('GET /api/admin/get_users')!;
      expect(users.status).toBe(200);
      expect(users.body.map((u: { username: string }) => u.username)).toEqual(
        expect.arrayContaining(['alice', 'bob']),
      );
      expect(users.body.every((u: { email: string }) => u.email === '')).toBe(true);
      const log = answers.get('GET /api/admin/submissions')!;
      expect(log.status).toBe(200);
      expect(log.body.rows.length).toBeGreaterThanOrEqual(3);
      expect(log.body.rows.every((r: object) => !('submitted' in r))).toBe(true);
      expect(answers.get('GET /api/admin/signals')!.body.map((s: { kind: string }) => s.kind)).toContain(
        'other_team_flag',
      );
    });

    it('an author reads the flags of the challenges it owns only where it edits them, and no address', async () => {
      // Owning nothing, it reads no flag anywhere, the editor's list included.
      let answers = await walk('author');
      expect(found(answers, [...emails, 'watcher@example.org', ...teamFlags, ...challengeFlags])).toEqual([]);
      expect(answers.get('GET /api/admin/ctf/fetch_challenges')!.body).toEqual([]);
      expect(answers.get('GET /api/admin/get_users')!.status).toBe(403);
      // Owning Plain, it reads Plain's flag where it edits it, and still nobody else's.
      await ownChallenge(t, t.challenges.plain.id, clients.author.user!.id);
      answers = await walk('author');
      expect(found(answers, [...emails, 'watcher@example.org', ...teamFlags, challengeFlags[1]!])).toEqual(
        [],
      );
      expect(found(answers, challengeFlags, AUTHORING)).toEqual([]);
      expect(found(answers, [challengeFlags[0]!])).toEqual([
        'GET /api/admin/ctf/fetch_challenges: flag{leak_plain_3f9a}',
      ]);
    });

    it('each walked admin route answered as the authorisation table says', async () => {
      for (const role of ['monitor', 'author'] as const) {
        const answers = await walk(role);
        for (const r of t.routes) {
          if (r.method !== 'GET' || r.access !== 'admin' || UNWALKABLE.test(r.url)) continue;
          const status = answers.get(`GET ${r.url}`)!.status;
          if (mayCall(role, { method: 'GET', path: r.url })) expect(status, `${role} ${r.url}`).toBe(200);
          else expect(status, `${role} ${r.url}`).toBe(403);
        }
      }
    });
  });
}
