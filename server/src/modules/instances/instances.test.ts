import { INSTANCE_LIMITS, INSTANCE_MESSAGES } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type TestApp,
  type TestClient,
  type TestResponse,
} from '../../../test/build-test-app.js';
import { addChallenge, makeTeam, openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { instanceDefinition, until } from '../../../test/instance-fixtures.js';
import { claimLease, releaseLease } from './instances.repo.js';

/**
 * What needs no engine: the definition's checks on save, the player's refusals, and a start
 * against an engine that cannot be reached (the row fails with the reason; Start tries again).
 */
for (const kind of testDatabaseKinds()) {
  describe(`instances without an engine (${kind})`, () => {
    let t: TestApp;
    let admin: TestClient;
    let alice: TestClient;

    beforeEach(async () => {
      t = await buildTestApp(kind, { DOCKER_HOST: 'unix:///nonexistent/docker.sock' });
      admin = await t.login('boss', { admin: true });
      alice = await t.login('alice');
      await makeTeam(t, 'Red', [alice.user!.id]);
      await openSite(t);
    });
    afterEach(async () => {
      await t.close();
    });

    const form = { name: 'Box', category: 'General', difficulty: 'Easy', written_by: 'x', flag: 'flag{box}' };

    it('checks the definition on save and stores it with its defaults', async () => {
      for (const [instance, field] of [
        [{ ...instanceDefinition(), image: 'Not An Image!' }, 'image'],
        [{ ...instanceDefinition(), ports: [] }, 'ports'],
        [{ ...instanceDefinition(), ports: [{ port: 80, protocol: 'udp' }] }, 'protocol'],
        [{ ...instanceDefinition(), env: { FLAG: 'mine' } }, 'FLAG'],
        [{ ...instanceDefinition(), memoryMb: 1 }, 'memoryMb'],
        [{ ...instanceDefinition(), privileged: true }, 'privileged'],
      ] as const) {
        const res = await admin.post('/api/admin/ctf/create_challenge', { ...form, instance });
        expect(res.status, JSON.stringify(instance)).toBe(400);
        expect(res.body.message).toContain(field);
      }
      const ok = await admin.post('/api/admin/ctf/create_challenge', {
        ...form,
        instance: { image: 'web-chal:1', ports: [{ port: 8080, protocol: 'http' }] },
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      const [c] = (await admin.get('/api/admin/ctf/fetch_challenges')).body;
      expect(c.instance).toEqual({
        image: 'web-chal:1',
        ports: [{ port: 8080, protocol: 'http' }],
        memoryMb: 256,
        cpus: 0.5,
        pids: 128,
        lifetimeMinutes: 30,
        env: {},
        egress: false,
      });
      // An update without `instance` leaves it; null removes it.
      const edit = { ...form, challenge_id: c._id };
      await admin.post('/api/admin/ctf/update_challenge', edit);
      expect((await admin.get('/api/admin/ctf/fetch_challenges')).body[0].instance).not.toBeNull();
      await admin.post('/api/admin/ctf/update_challenge', { ...edit, instance: null });
      expect((await admin.get('/api/admin/ctf/fetch_challenges')).body[0].instance).toBeNull();
    });

    it('answers 404 without an instance or for a challenge without one', async () => {
      const plain = await addChallenge(t, { name: 'Plain' });
      expect((await alice.post('/api/ctf/instance/start', { challenge_id: plain.id })).body.message).toBe(
        INSTANCE_MESSAGES.notInstanceChallenge,
      );
      const box = await addChallenge(t, { name: 'Box', per_team: true, instance: instanceDefinition() });
      const none = await alice.get(`/api/ctf/instance?challenge_id=${box.id}`);
      expect(none.status).toBe(404);
      expect(none.body.message).toBe(INSTANCE_MESSAGES.none);
      expect((await alice.post('/api/ctf/instance/stop', { challenge_id: box.id })).status).toBe(404);
      expect((await alice.post('/api/ctf/instance/renew', { challenge_id: box.id })).status).toBe(404);
      expect((await t.visitor().post('/api/ctf/instance/start', { challenge_id: box.id })).status).toBe(401);
    });

    it('a start the engine cannot serve fails with its reason for admins; Start again is rate-limited', async () => {
      const box = await addChallenge(t, { name: 'Box', per_team: true, instance: instanceDefinition() });
      const started = await alice.post('/api/ctf/instance/start', { challenge_id: box.id });
      expect(started.status).toBe(200);
      expect(started.body.status).toBe('starting');
      await until(
        'the start to fail',
        async () => (await alice.get(`/api/ctf/instance?challenge_id=${box.id}`)).status === 503,
      );
      expect((await alice.get(`/api/ctf/instance?challenge_id=${box.id}`)).body.message).toBe(
        INSTANCE_MESSAGES.failed,
      );
      const [row] = (await admin.get('/api/admin/instances')).body;
      expect(row).toMatchObject({
        team: 'Red',
        challenge: 'Box',
        state: 'failed',
        started_by: 'alice',
        addresses: [],
      });
      expect(row.error).toContain('The Docker engine cannot be reached');

      // Starts after a failure count against the team's limit. NOTE: the limiter of a process that
      // finds itself alone on the database moves its counts into memory once, which may give one
      // more window's worth (plugins/shared-state/lone-process-rate-limiter.ts): so up to twice.
      let allowed = 1;
      let limited: TestResponse | null = null;
      while (!limited && allowed <= 2 * INSTANCE_LIMITS.startsPerWindow) {
        const again = await alice.post('/api/ctf/instance/start', { challenge_id: box.id });
        if (again.status === 429) limited = again;
        else {
          expect(again.status).toBe(200);
          allowed += 1;
          await until(
            'the start to fail',
            async () => (await alice.get(`/api/ctf/instance?challenge_id=${box.id}`)).status === 503,
          );
        }
      }
      expect(allowed).toBeGreaterThanOrEqual(INSTANCE_LIMITS.startsPerWindow);
      expect(limited?.body.message).toMatch(/^Too many instance starts: try again in \d+ seconds\.$/);
      expect(limited?.headers['retry-after']).toBeDefined();
      // The admin dismisses the failed row (each Start replaced the previous one).
      const [latest] = (await admin.get('/api/admin/instances')).body;
      expect(latest._id).not.toBe(row._id);
      expect((await admin.post('/api/admin/instances/stop', { instance_id: latest._id })).status).toBe(200);
      expect((await admin.get('/api/admin/instances')).body).toEqual([]);
    });

    it('gives the janitor’s lease to one holder at a time, and to another once it runs out', async () => {
      const db = t.ctx.database.db;
      const now = 1_000_000;
      const claims = await Promise.all(['a', 'b', 'c'].map((h) => claimLease(db, 'job', h, now, 15_000)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      const holder = ['a', 'b', 'c'][claims.indexOf(true)]!;
      const other = holder === 'a' ? 'b' : 'a';
      // The holder renews it; the others wait until it has run out.
      expect(await claimLease(db, 'job', holder, now + 5_000, 15_000)).toBe(true);
      expect(await claimLease(db, 'job', other, now + 19_000, 15_000)).toBe(false);
      expect(await claimLease(db, 'job', other, now + 20_001, 15_000)).toBe(true);
      expect(await claimLease(db, 'job', holder, now + 21_000, 15_000)).toBe(false);
      // A holder that stops gives it up at once.
      await releaseLease(db, 'job', other);
      expect(await claimLease(db, 'job', holder, now + 21_000, 15_000)).toBe(true);
    });
  });
}
