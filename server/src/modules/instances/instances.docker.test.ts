import { INSTANCE_MESSAGES, MESSAGES } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge, makeTeam, openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { dockerEngine } from '../../../test/docker.js';
import {
  ENTRY_IMAGE,
  FLAG_SERVICE_IMAGE,
  instanceDefinition,
  instanceEnv,
  readService,
  requireImage,
  setChallengeHost,
  sweepOnlyWhenTestsSay,
  until,
  untilRunning,
} from '../../../test/instance-fixtures.js';
import { flushSubmissionLog } from '../submission-log/submission-log.service.js';
import { sweepInstances } from './janitor.js';
import { driverOf } from './runtime.js';

/**
 * Per-team instances against a real Docker engine (never a mock): scripts/docker/start-engine.sh
 * and build-base-image.sh make one and its image; without it these tests are skipped with one loud line
 * (REQUIRE_DOCKER=1, as in CI, makes them fail instead).
 */
const engine = await dockerEngine('per-team instances');
// The image is built by scripts/docker/build-base-image.sh (.ci/run); with an engine it must be there.
if (engine) for (const image of [FLAG_SERVICE_IMAGE, ENTRY_IMAGE]) await requireImage(engine, image);

sweepOnlyWhenTestsSay();

for (const kind of testDatabaseKinds()) {
  describe.skipIf(!engine)(`instances on a real engine (${kind})`, () => {
    let t: TestApp;
    let admin: TestClient;
    let alice: TestClient;
    let amy: TestClient;
    let bob: TestClient;

    beforeEach(async () => {
      t = await buildTestApp(kind, instanceEnv(engine!.host));
      admin = await t.login('boss', { admin: true });
      alice = await t.login('alice');
      amy = await t.login('amy');
      bob = await t.login('bob');
      await makeTeam(t, 'Red', [alice.user!.id, amy.user!.id]);
      await makeTeam(t, 'Blue', [bob.user!.id]);
      await openSite(t);
      await setChallengeHost(admin);
    });
    afterEach(async () => {
      // Whatever a test left, the engine gets back: every instance row is removed with its container.
      for (const row of await t.ctx.database.db.selectFrom('instances').select('id').execute())
        await driverOf(t.ctx).remove(row.id);
      await t.close();
    });

    const instanceChallenge = (extra: Record<string, unknown> = {}) =>
      addChallenge(t, {
        name: `Box ${Math.random().toString(36).slice(2, 8)}`,
        flag: 'flag{in_the_box}',
        per_team: true,
        instance: instanceDefinition(extra),
      });
    const containersOfSite = async () => (await driverOf(t.ctx).list()).filter((c) => c.containerId !== null);

    it('starts, answers with the team’s own flag, scores it; another team’s flag is refused and flagged', async () => {
      const c = await instanceChallenge();
      const detail = await alice.post('/api/ctf/challenge', { challenge_id: c.id });
      expect(detail.body.instance).toBe(true);
      expect((await alice.get(`/api/ctf/instance?challenge_id=${c.id}`)).status).toBe(404);

      const started = await alice.post('/api/ctf/instance/start', { challenge_id: c.id });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      expect(['starting', 'running']).toContain(started.body.status);
      expect(started.body.host).toBe('127.0.0.1');
      const state = await untilRunning(alice, c.id);
      const port = state.ports[0]!;
      expect(port.protocol).toBe('tcp');
      expect(port.port).toBeGreaterThanOrEqual(31000);
      expect(port.port).toBeLessThanOrEqual(31999);
      // A teammate sees the same instance.
      expect((await amy.get(`/api/ctf/instance?challenge_id=${c.id}`)).body).toEqual(state);

      const redFlag = (await readService('127.0.0.1', port.port)).trim();
      expect(redFlag).toMatch(/^flag\{in_the_box_[0-9a-f]{16}\}$/);
      const revealed = await admin.post('/api/admin/ctf/reveal_team_flag', {
        challenge_id: c.id,
        competitor: 'Red',
      });
      expect(redFlag).toBe(revealed.body.flag);

      // Bob (Blue) sends Red's flag: refused, and the certain signal names both teams.
      const stolen = await bob.post('/api/ctf/submit-flag', { challenge_id: c.id, flag: redFlag });
      expect(stolen.body.message).toBe(MESSAGES.incorrectFlag);
      await flushSubmissionLog(t.ctx);
      const signals = (await admin.get('/api/admin/signals')).body as {
        kind: string;
        competitors: string[];
      }[];
      expect(signals.filter((s) => s.kind === 'other_team_flag').map((s) => s.competitors)).toEqual([
        ['Blue', 'Red'],
      ]);
      const own = await amy.post('/api/ctf/submit-flag', { challenge_id: c.id, flag: redFlag });
      expect(own.body.message).toBe(MESSAGES.correctFlag);

      // The container as the issue asks it: labels, init, no privileges, read-only, limits, own network.
      const [container] = await containersOfSite();
      const docker = await (
        driverOf(t.ctx) as unknown as { docker(): Promise<import('dockerode')> }
      ).docker();
      const info = await docker.getContainer(container!.containerId!).inspect();
      expect(info.HostConfig.Init).toBe(true);
      expect(info.HostConfig.Privileged).toBe(false);
      expect(info.HostConfig.CapDrop).toEqual(['ALL']);
      expect(info.HostConfig.ReadonlyRootfs).toBe(true);
      expect(info.HostConfig.Memory).toBe(64 * 1024 * 1024);
      expect(info.HostConfig.NanoCpus).toBe(0.25e9);
      expect(info.HostConfig.PidsLimit).toBe(32);
      expect(info.Config.Labels['ctf.challenge']).toBe(String(c.id));
      expect(info.Config.Labels['ctf.competitor']).toMatch(/^team:\d+$/);
      expect(Object.keys(info.NetworkSettings.Networks)).toEqual([info.Name.slice(1)]);

      // Renew: the time left is the lifetime again (from a later now).
      t.clock.advance(10 * 60_000);
      const renewed = await amy.post('/api/ctf/instance/renew', { challenge_id: c.id });
      expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
      expect(Date.parse(renewed.body.expiresAt)).toBe(t.clock.now().getTime() + 30 * 60_000);

      // The admin list shows it; the player stops it and the container goes.
      const listed = (await admin.get('/api/admin/instances')).body;
      expect(listed).toMatchObject([
        { team: 'Red', challenge: c.name, state: 'running', addresses: [`nc 127.0.0.1 ${port.port}`] },
      ]);
      const stopped = await alice.post('/api/ctf/instance/stop', { challenge_id: c.id });
      expect(stopped.body.message).toBe(INSTANCE_MESSAGES.stopped);
      expect(await containersOfSite()).toEqual([]);
      expect((await alice.get(`/api/ctf/instance?challenge_id=${c.id}`)).status).toBe(404);
      const audit = (await admin.get('/api/admin/audit')).body.rows as { action: string }[];
      expect(
        audit
          .map((r) => r.action)
          .filter((a) => a.startsWith('instance.'))
          .sort(),
      ).toEqual(['instance.renew', 'instance.start', 'instance.stop']);
    });

    it('two members pressing Start at once make one container; the per-team cap holds', async () => {
      const c = await instanceChallenge();
      const [a, b] = await Promise.all([
        alice.post('/api/ctf/instance/start', { challenge_id: c.id }),
        amy.post('/api/ctf/instance/start', { challenge_id: c.id }),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(a.body.ports).toEqual(b.body.ports);
      await untilRunning(alice, c.id);
      expect(await containersOfSite()).toHaveLength(1);

      await admin.post('/api/admin/settings', { instancesPerTeam: 1 });
      const other = await instanceChallenge();
      const refused = await amy.post('/api/ctf/instance/start', { challenge_id: other.id });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(INSTANCE_MESSAGES.perTeamLimit(1));
      // Blue is another team: its own cap.
      expect((await bob.post('/api/ctf/instance/start', { challenge_id: other.id })).status).toBe(200);
      await untilRunning(bob, other.id);
    });

    it('refuses starts while the site is inactive; a missing image fails with the engine’s message', async () => {
      const c = await instanceChallenge({ image: 'ctf-no-such-image:never' });
      await openSite(t, false);
      const closed = await alice.post('/api/ctf/instance/start', { challenge_id: c.id });
      expect(closed.status).toBe(403);
      expect(closed.body.message).toBe(MESSAGES.siteInactive);
      await openSite(t);
      expect((await alice.post('/api/ctf/instance/start', { challenge_id: c.id })).status).toBe(200);
      await until(
        'the start to fail',
        async () => (await alice.get(`/api/ctf/instance?challenge_id=${c.id}`)).status === 503,
      );
      const [row] = (await admin.get('/api/admin/instances')).body as { state: string; error: string }[];
      expect(row!.state).toBe('failed');
      expect(row!.error).toContain("Image 'ctf-no-such-image:never'");
      expect(await containersOfSite()).toEqual([]);
    });

    it('the janitor stops expired instances, removes orphans and a banned team’s instances', async () => {
      const c = await instanceChallenge({ lifetimeMinutes: 5 });
      await alice.post('/api/ctf/instance/start', { challenge_id: c.id });
      await bob.post('/api/ctf/instance/start', { challenge_id: c.id });
      await untilRunning(alice, c.id);
      await untilRunning(bob, c.id);
      // An orphan: a container of this site whose row is gone (a crash after the engine made it).
      const orphanId = 999_999;
      await driverOf(t.ctx).start({
        ...instanceDefinition(),
        instanceId: orphanId,
        ports: [{ port: 1337, protocol: 'tcp', hostPort: 31999 }],
        capabilities: [],
        writableRoot: false,
        egress: false,
        denyHosts: [],
        runtime: null,
        challengeId: c.id,
        competitor: 'team:0',
        expiresAt: t.clock.now().getTime() + 3_600_000,
      });
      expect(await containersOfSite()).toHaveLength(3);
      await sweepInstances(t.ctx);
      expect((await containersOfSite()).map((x) => x.instanceId)).not.toContain(orphanId);
      expect(await containersOfSite()).toHaveLength(2);

      // Blue is banned: its instance goes at the next sweep.
      await admin.post('/api/admin/moderate', { target: 'team', name: 'Blue', action: 'ban', reason: 'x' });
      await sweepInstances(t.ctx);
      expect(await containersOfSite()).toHaveLength(1);

      t.clock.advance(5 * 60_000);
      await sweepInstances(t.ctx);
      expect(await containersOfSite()).toEqual([]);
      expect(await t.ctx.database.db.selectFrom('instances').selectAll().execute()).toEqual([]);
      const audit = (await admin.get('/api/admin/audit?action=instance.expire')).body.rows;
      expect(audit).toHaveLength(1);
    });
  });
}
