import { MESSAGES, WRONG_FLAG_LIMIT, WRONG_FLAG_WINDOW_MS } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { addChallenge, makeTeam, openSite, setTeam } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { toggleChallengeStatus } from '../challenges/challenges.service.js';

const SUBMIT = '/api/ctf/submit-flag';

for (const kind of testDatabaseKinds()) {
  describe(`POST /api/ctf/submit-flag on ${kind}`, () => {
    let t: TestApp;
    beforeEach(async () => {
      t = await buildTestApp(kind);
      await openSite(t);
    });
    afterEach(async () => {
      await t.close();
    });

    const solves = () =>
      t.ctx.database.db
        .selectFrom('solves')
        .select(['user_id', 'challenge_id', 'team_id', 'created_at'])
        .execute();

    it('records a solve for the right flag, trimmed, and answers Correct Flag!', async () => {
      const c = await addChallenge(t, { flag: 'flag{Right}' });
      const ann = await t.login('ann');
      const res = await ann.post(SUBMIT, { flag: '  flag{Right}\n', challenge_id: String(c.id) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: MESSAGES.correctFlag });
      expect(await solves()).toEqual([
        { user_id: ann.user!.id, challenge_id: c.id, team_id: null, created_at: t.clock.now().toISOString() },
      ]);
      const info = await ann.get('/api/user/info');
      expect(info.body.completions).toEqual([
        { id: String(c.id), name: c.name, time: t.clock.now().toISOString() },
      ]);
    });

    it('answers a wrong flag with status 200 and Incorrect Flag!, comparing case-sensitively', async () => {
      const c = await addChallenge(t, { flag: 'flag{Right}' });
      const ann = await t.login('ann');
      for (const flag of ['flag{right}', 'FLAG{Right}', 'flag{Right}x', 'x']) {
        const res = await ann.post(SUBMIT, { flag, challenge_id: c.id });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ message: MESSAGES.incorrectFlag });
      }
      expect(await solves()).toEqual([]);
    });

    it('credits the solve to the team the user is on at that moment, and it never moves', async () => {
      const [c1, c2] = [await addChallenge(t), await addChallenge(t)];
      const ann = await t.login('ann');
      const team = await makeTeam(t, 'Red', [ann.user!.id]);
      await ann.post(SUBMIT, { flag: c1.flag, challenge_id: c1.id });
      await setTeam(t, ann.user!.id, null);
      await ann.post(SUBMIT, { flag: c2.flag, challenge_id: c2.id });
      expect((await solves()).map((s) => [s.challenge_id, s.team_id])).toEqual([
        [c1.id, team],
        [c2.id, null],
      ]);
    });

    it('refuses a second solve of the same challenge with 409', async () => {
      const c = await addChallenge(t);
      const ann = await t.login('ann');
      await ann.post(SUBMIT, { flag: c.flag, challenge_id: c.id });
      const res = await ann.post(SUBMIT, { flag: c.flag, challenge_id: c.id });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: MESSAGES.alreadySolved, code: 'already_solved' });
      expect((await ann.post(SUBMIT, { flag: 'wrong', challenge_id: c.id })).status).toBe(409);
    });

    it('needs a login', async () => {
      const c = await addChallenge(t);
      const res = await t.visitor().post(SUBMIT, { flag: c.flag, challenge_id: c.id });
      expect(res.status).toBe(401);
      expect(await solves()).toEqual([]);
    });

    it('refuses bad input: no flag, an empty or overlong flag, a bad id', async () => {
      const c = await addChallenge(t);
      const ann = await t.login('ann');
      const bodies = [
        { challenge_id: c.id },
        { flag: '', challenge_id: c.id },
        { flag: 'x'.repeat(201), challenge_id: c.id },
        { flag: 7, challenge_id: c.id },
        { flag: c.flag },
        { flag: c.flag, challenge_id: 'one' },
      ];
      for (const body of bodies) {
        const res = await ann.post(SUBMIT, body);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('bad_input');
      }
      expect((await ann.post(SUBMIT, { flag: '', challenge_id: c.id })).body.message).toContain(
        'Flag is required',
      );
      expect(await solves()).toEqual([]);
    });

    it('answers 404 for an unknown challenge', async () => {
      const res = await (await t.login('ann')).post(SUBMIT, { flag: 'x', challenge_id: 12345 });
      expect(res.status).toBe(404);
    });

    it('answers 404, recording nothing, when the challenge is deleted between the gate and the write', async () => {
      const c = await addChallenge(t);
      const ann = await t.login('ann');
      // A wrong flag first: the gate now keeps this challenge's flag in memory.
      expect((await ann.post(SUBMIT, { flag: 'flag{nope}', challenge_id: c.id })).body.message).toBe(
        MESSAGES.incorrectFlag,
      );
      // Deleted as another process would, before its publication arrives here.
      await t.ctx.database.db.deleteFrom('challenges').where('id', '=', c.id).execute();
      const res = await ann.post(SUBMIT, { flag: c.flag, challenge_id: c.id });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ message: 'Challenge not found' });
      expect(await solves()).toEqual([]);
    });

    it('refuses an inactive challenge to participants (403) but lets an admin try it', async () => {
      const c = await addChallenge(t);
      await toggleChallengeStatus(t.ctx, c.id);
      const res = await (await t.login('ann')).post(SUBMIT, { flag: c.flag, challenge_id: c.id });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(MESSAGES.challengeInactive);
      const admin = await t.login('root', { admin: true });
      expect((await admin.post(SUBMIT, { flag: c.flag, challenge_id: c.id })).body.message).toBe(
        MESSAGES.correctFlag,
      );
    });

    it('compares with the flag as it stands after each admin change, once play has begun', async () => {
      const c = await addChallenge(t, { flag: 'flag{before}', name: 'Edited' });
      const ann = await t.login('ann');
      const admin = await t.login('root', { admin: true });
      // The gate has read the challenge (and keeps it) before the admin changes anything.
      expect((await ann.post(SUBMIT, { flag: 'flag{after}', challenge_id: c.id })).body.message).toBe(
        MESSAGES.incorrectFlag,
      );
      const edit = await admin.post('/api/admin/ctf/update_challenge', {
        challenge_id: String(c.id),
        name: 'Edited',
        description: '',
        category: 'General',
        difficulty: 'Easy',
        written_by: 'club',
        flag: 'flag{after}',
        points: 100,
        files: [],
      });
      expect(edit.status).toBe(200);
      expect((await ann.post(SUBMIT, { flag: 'flag{before}', challenge_id: c.id })).body.message).toBe(
        MESSAGES.incorrectFlag,
      );
      const bob = await t.login('bob');
      await admin.post('/api/admin/ctf/toggle_status', { challenge_id: c.id });
      expect((await bob.post(SUBMIT, { flag: 'flag{after}', challenge_id: c.id })).status).toBe(403);
      await admin.post('/api/admin/ctf/toggle_status', { challenge_id: c.id });
      expect((await bob.post(SUBMIT, { flag: 'flag{after}', challenge_id: c.id })).body.message).toBe(
        MESSAGES.correctFlag,
      );
      await admin.post('/api/admin/ctf/delete_challenge', { challenge_id: c.id });
      expect((await ann.post(SUBMIT, { flag: 'flag{after}', challenge_id: c.id })).status).toBe(404);
    });

    it('refuses participants while the site is inactive', async () => {
      const c = await addChallenge(t);
      await openSite(t, false);
      const res = await (await t.login('ann')).post(SUBMIT, { flag: c.flag, challenge_id: c.id });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: MESSAGES.siteInactive, code: 'site_inactive' });
      expect(await solves()).toEqual([]);
      const admin = await t.login('root', { admin: true });
      expect((await admin.post(SUBMIT, { flag: c.flag, challenge_id: c.id })).status).toBe(200);
    });

    it('limits wrong flags per user and challenge, checked before the comparison', async () => {
      const c = await addChallenge(t);
      const other = await addChallenge(t);
      const ann = await t.login('ann');
      const bob = await t.login('bob');
      for (let i = 0; i < WRONG_FLAG_LIMIT; i++) {
        expect((await ann.post(SUBMIT, { flag: `wrong-${i}`, challenge_id: c.id })).body.message).toBe(
          MESSAGES.incorrectFlag,
        );
      }
      // Even the right flag waits now.
      const limited = await ann.post(SUBMIT, { flag: c.flag, challenge_id: c.id });
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('rate_limited');
      expect(limited.headers['retry-after']).toBe(String(WRONG_FLAG_WINDOW_MS / 1000));
      expect(limited.body.message).toBe(
        `Too many wrong flags. Try again in ${WRONG_FLAG_WINDOW_MS / 1000} seconds.`,
      );
      expect(await solves()).toEqual([]);

      // Another challenge, and another user on this one, are not affected.
      expect((await ann.post(SUBMIT, { flag: other.flag, challenge_id: other.id })).body.message).toBe(
        MESSAGES.correctFlag,
      );
      expect((await bob.post(SUBMIT, { flag: 'nope', challenge_id: c.id })).body.message).toBe(
        MESSAGES.incorrectFlag,
      );

      t.clock.advance(WRONG_FLAG_WINDOW_MS / 2);
      const stillLimited = await ann.post(SUBMIT, { flag: c.flag, challenge_id: c.id });
      expect(stillLimited.status).toBe(429);
      expect(stillLimited.headers['retry-after']).toBe(String(WRONG_FLAG_WINDOW_MS / 2000));

      t.clock.advance(WRONG_FLAG_WINDOW_MS / 2 + 1);
      expect((await ann.post(SUBMIT, { flag: c.flag, challenge_id: c.id })).body.message).toBe(
        MESSAGES.correctFlag,
      );
    });

    it('does not count right flags or refusals against the limit', async () => {
      const cs = [];
      for (let i = 0; i < WRONG_FLAG_LIMIT + 2; i++) cs.push(await addChallenge(t));
      const ann = await t.login('ann');
      const c = cs[0]!;
      await ann.post(SUBMIT, { flag: c.flag, challenge_id: c.id });
      for (let i = 0; i < WRONG_FLAG_LIMIT + 2; i++) {
        expect((await ann.post(SUBMIT, { flag: 'x', challenge_id: c.id })).status).toBe(409);
      }
      const d = cs[1]!;
      for (let i = 0; i < WRONG_FLAG_LIMIT - 1; i++)
        await ann.post(SUBMIT, { flag: 'x', challenge_id: d.id });
      expect((await ann.post(SUBMIT, { flag: d.flag, challenge_id: d.id })).body.message).toBe(
        MESSAGES.correctFlag,
      );
    });

    it('never writes a submitted flag to the log, even when the request fails inside', async () => {
      const c = await addChallenge(t, { flag: 'flag{log-canary-right}' });
      const ann = await t.login('ann');
      // With logging off every request logger is the app's logger itself, so spies see every line.
      const log = t.app.log as unknown as Record<string, (...args: unknown[]) => void>;
      const spies = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'].map((level) => vi.spyOn(log, level));
      await ann.post(SUBMIT, { flag: 'flag{log-canary-wrong}', challenge_id: c.id });
      await ann.post(SUBMIT, { flag: 'x'.repeat(300) + 'log-canary-long', challenge_id: c.id });
      const hit = vi.spyOn(t.ctx.limiter, 'hit').mockRejectedValueOnce(new Error('limiter down'));
      const failed = await ann.post(SUBMIT, { flag: 'flag{log-canary-failed}', challenge_id: c.id });
      expect(failed.status).toBe(500);
      expect(failed.text).not.toContain('log-canary');
      hit.mockRestore();
      await ann.post(SUBMIT, { flag: 'flag{log-canary-right}', challenge_id: c.id });
      const logged = spies.flatMap((s) => s.mock.calls);
      // The failure was logged (so the spies do see the request's lines), without the flag.
      expect(logged.length).toBeGreaterThan(0);
      const text = logged
        .map((args) => JSON.stringify(args, (_k, v) => (v instanceof Error ? `${v.message} ${v.stack}` : v)))
        .join('\n');
      expect(text).not.toContain('log-canary');
    });

    it('records exactly one solve when 20 correct submissions race', async () => {
      const c = await addChallenge(t);
      const ann = await t.login('ann');
      const results = await Promise.all(
        Array.from({ length: 20 }, () => ann.post(SUBMIT, { flag: c.flag, challenge_id: c.id })),
      );
      const correct = results.filter((r) => r.status === 200 && r.body.message === MESSAGES.correctFlag);
      expect(correct).toHaveLength(1);
      // The others are refused: already solved, or (attempts are counted before the comparison)
      // over the attempt limit when more than 10 arrive before the solve is recorded.
      for (const r of results) {
        if (r === correct[0]) continue;
        if (r.status === 409) expect(r.body.message).toBe(MESSAGES.alreadySolved);
        else expect(r.status).toBe(429);
      }
      expect(await solves()).toHaveLength(1);
    });
  });
}
