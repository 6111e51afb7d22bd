import { INSTANCE_MESSAGES } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge, makeTeam, openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { dockerEngine } from '../../../test/docker.js';
import { HangingEngine } from '../../../test/hanging-engine.js';
import {
  ENTRY_IMAGE,
  FLAG_SERVICE_IMAGE,
  instanceDefinition,
  instanceEnv,
  requireImage,
  setChallengeHost,
  until,
} from '../../../test/instance-fixtures.js';
import { sweepInstances } from './janitor.js';
import { driverOf } from './runtime.js';

/**
 * Every engine call has a deadline: against an engine that accepts and never answers, a start
 * fails within it with "The challenge host did not answer in N s", stop and renew answer, no row
 * stays 'starting' or 'stopping', the admin panel reads the engine as unreachable, and the
 * janitor's sweep goes through again once the engine answers (a real engine behind the socket,
 * when there is one; a start is not tried there: the 1 s deadline is the hung engine's).
 */
const engine = await dockerEngine('engine deadlines (the engine coming back)');
if (engine) for (const image of [FLAG_SERVICE_IMAGE, ENTRY_IMAGE]) await requireImage(engine, image);
const TIMEOUT_S = 1;

for (const kind of testDatabaseKinds()) {
  describe(`a hung engine (${kind})`, () => {
    let hung: HangingEngine;
    let t: TestApp;
    let admin: TestClient;
    let alice: TestClient;
    let teamId: number;

    beforeEach(async () => {
      hung = new HangingEngine();
      await hung.start();
      t = await buildTestApp(kind, {
        ...instanceEnv(hung.host, '33000-33099'),
        INSTANCE_ENGINE_TIMEOUT_SECONDS: String(TIMEOUT_S),
        INSTANCE_START_TIMEOUT_SECONDS: '10',
      });
      admin = await t.login('boss', { admin: true });
      alice = await t.login('alice');
      teamId = await makeTeam(t, 'Red', [alice.user!.id]);
      await openSite(t);
      await setChallengeHost(admin);
    });
    afterEach(async () => {
      if (engine) {
        hung.forwardTo(engine.host.slice('unix://'.length));
        for (const row of await t.ctx.database.db.selectFrom('instances').select('id').execute())
          await driverOf(t.ctx)
            .remove(row.id)
            .catch(() => {});
      }
      await t.close();
      await hung.stop();
    });

    const insertRow = async (challengeId: number, state: string, createdAgoMs = 0) => {
      const now = t.clock.now().getTime();
      const row = await t.ctx.database.db
        .insertInto('instances')
        .values({
          challenge_id: challengeId,
          competitor_kind: 'team',
          competitor_id: teamId,
          started_by: alice.user!.id,
          state,
          ports: JSON.stringify([{ port: 1337, protocol: 'tcp', hostPort: 33099 }]),
          created_at: now - createdAgoMs,
          expires_at: now + 30 * 60_000,
          max_expires_at: now + 120 * 60_000,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    };
    const stateOf = async (id: number) =>
      await t.ctx.database.db
        .selectFrom('instances')
        .select(['state', 'error'])
        .where('id', '=', id)
        .executeTakeFirst();

    it('a start fails within the deadline with a clear message; the admin panel reads the engine as unreachable', async () => {
      const box = await addChallenge(t, { name: 'Box', per_team: true, instance: instanceDefinition() });
      const began = Date.now();
      const started = await alice.post('/api/ctf/instance/start', { challenge_id: box.id });
      expect(started.status).toBe(200);
      expect(started.body.status).toBe('starting');
      await until(
        'the start to fail',
        async () => (await alice.get(`/api/ctf/instance?challenge_id=${box.id}`)).status === 503,
        10_000,
      );
      // The connection's deadline, and one more for the clean-up's: well inside the start timeout.
      expect(Date.now() - began).toBeLessThan(6_000);
      expect(hung.accepted).toBeGreaterThan(0);
      const [row] = (await admin.get('/api/admin/instances')).body;
      expect(row).toMatchObject({ state: 'failed', error: INSTANCE_MESSAGES.engineTimeout(TIMEOUT_S) });
      expect(INSTANCE_MESSAGES.engineTimeout(TIMEOUT_S)).toBe('The challenge host did not answer in 1 s');

      const status = await admin.get('/api/admin/instances/engine');
      expect(status.status).toBe(200);
      expect(status.body).toEqual({ reachable: false, message: INSTANCE_MESSAGES.engineTimeout(TIMEOUT_S) });
    });

    it('stop and renew answer; the janitor leaves no row starting or stopping, and works again when the engine answers', async () => {
      const box = await addChallenge(t, { name: 'Box', per_team: true, instance: instanceDefinition() });
      // An instance that was running before the engine hung: renew needs no engine.
      const running = await insertRow(box.id, 'running');
      t.clock.advance(60_000);
      const renewed = await alice.post('/api/ctf/instance/renew', { challenge_id: box.id });
      expect(renewed.status, JSON.stringify([renewed.body, await stateOf(running)])).toBe(200);
      const began = Date.now();
      const stopped = await alice.post('/api/ctf/instance/stop', { challenge_id: box.id });
      expect(Date.now() - began).toBeLessThan(5_000);
      expect(stopped.status).toBe(503);
      expect(stopped.body.message).toBe(INSTANCE_MESSAGES.engineTimeout(TIMEOUT_S));
      expect(await stateOf(running)).toMatchObject({ state: 'failed' });
      // The player may start again at once (the failed row does not count).
      await t.ctx.database.db.deleteFrom('instances').execute();

      // Left by a process that died: one mid-start (past the start timeout), one mid-stop.
      const other = await addChallenge(t, { name: 'Other', per_team: true, instance: instanceDefinition() });
      const starting = await insertRow(box.id, 'starting', 60_000);
      const stopping = await insertRow(other.id, 'stopping');
      const sweepBegan = Date.now();
      await expect(sweepInstances(t.ctx)).rejects.toThrow(INSTANCE_MESSAGES.engineTimeout(TIMEOUT_S));
      expect(Date.now() - sweepBegan).toBeLessThan(5_000);
      expect(await stateOf(starting)).toMatchObject({ state: 'failed' });
      expect(await stateOf(stopping)).toMatchObject({ state: 'failed' });

      if (!engine) return;
      // The engine answers again: the panel says so, the sweep finishes, a start runs.
      hung.forwardTo(engine.host.slice('unix://'.length));
      await until(
        'the engine to read as reachable',
        async () => (await admin.get('/api/admin/instances/engine')).body.reachable === true,
      );
      // The sweep goes through (it asked the engine for the site's containers and got them), and
      // finds the engine's answer: the failed rows' containers (none were made) are nothing left.
      await sweepInstances(t.ctx);
      expect(await driverOf(t.ctx).list()).toEqual([]);
    });
  });
}
