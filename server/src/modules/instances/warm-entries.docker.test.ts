import net from 'node:net';
import type Docker from 'dockerode';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
import { sweepInstances } from './janitor.js';
import { driverOf, launchesOf } from './runtime.js';

/**
 * Warm entry points and host ports held by other programs, on a real engine: the janitor keeps
 * INSTANCE_WARM_ENTRIES entry points per instance challenge; a start takes one (its ports become
 * the instance's, only the challenge's container is made, on the warm entry point's internal
 * network), the janitor makes another, a stop leaves nothing of either, and the setting at 0
 * removes them all. A start whose random port another program holds moves to another port.
 */
const engine = await dockerEngine('warm entry points');
if (engine) for (const image of [FLAG_SERVICE_IMAGE, ENTRY_IMAGE]) await requireImage(engine, image);

sweepOnlyWhenTestsSay();

for (const kind of testDatabaseKinds()) {
  describe.skipIf(!engine)(`warm entry points and held ports (${kind})`, () => {
    let t: TestApp;
    let alice: TestClient;
    let bob: TestClient;
    const held: net.Server[] = [];

    const setUp = async (env: Record<string, string>) => {
      t = await buildTestApp(kind, { ...instanceEnv(engine!.host), ...env });
      const admin = await t.login('boss', { admin: true });
      alice = await t.login('alice');
      bob = await t.login('bob');
      await makeTeam(t, 'Red', [alice.user!.id]);
      await makeTeam(t, 'Blue', [bob.user!.id]);
      await openSite(t);
      await setChallengeHost(admin);
      return addChallenge(t, {
        name: 'Box',
        flag: 'flag{warm}',
        per_team: true,
        instance: instanceDefinition(),
      });
    };
    afterEach(async () => {
      vi.restoreAllMocks();
      for (const s of held.splice(0)) await new Promise((r) => s.close(r));
      if (!t) return;
      for (const row of await t.ctx.database.db.selectFrom('instances').select('id').execute())
        await driverOf(t.ctx).remove(row.id);
      // Nothing warm stays on the shared engine.
      t.ctx.config.instances.warmEntries = 0;
      await sweepInstances(t.ctx);
      await t.close();
    });

    const dockerOf = () => (driverOf(t.ctx) as unknown as { docker(): Promise<Docker> }).docker();
    /** This site's containers and networks on the engine, by name. */
    const onEngine = async () => {
      const docker = await dockerOf();
      const filters = JSON.stringify({ label: [`ctf.site=${t.ctx.config.instances.site}`] });
      const containers = await docker.listContainers({ all: true, filters });
      const networks = await docker.listNetworks({ filters });
      return {
        containers: containers.map((c) => ({ name: c.Names[0]!.slice(1), labels: c.Labels, state: c.State })),
        networks: networks.map((n) => n.Name),
      };
    };
    const warmNamed = (names: string[]) => names.filter((n) => /-w[0-9a-f]{12}(-entry)?$/.test(n));

    it('a start takes a warm entry point; the janitor makes another; stop and the setting at 0 leave nothing', async () => {
      const box = await setUp({ INSTANCE_WARM_ENTRIES: '2', INSTANCE_PORT_RANGE: '29200-29299' });
      await sweepInstances(t.ctx);
      const before = await onEngine();
      const warm = before.containers.filter((c) => c.labels['ctf.warm']);
      expect(warmNamed(warm.map((c) => c.name))).toHaveLength(2);
      expect(warm.every((c) => c.state === 'running')).toBe(true);
      expect(warmNamed(before.networks)).toHaveLength(2);
      const warmPorts = warm.map(
        (c) => (JSON.parse(c.labels['ctf.ports']!) as { hostPort: number }[])[0]!.hostPort,
      );

      const started = await alice.post('/api/ctf/instance/start', { challenge_id: box.id });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const state = await untilRunning(alice, box.id);
      // The instance answers on a warm entry point's port, with its team's own flag.
      expect(warmPorts).toContain(state.ports[0]!.port);
      expect((await readService('127.0.0.1', state.ports[0]!.port)).trim()).toMatch(
        /^flag\{warm_[0-9a-f]{16}\}$/,
      );

      const [row] = await t.ctx.database.db.selectFrom('instances').select(['id', 'ports']).execute();
      const name = (driverOf(t.ctx) as unknown as { nameOf(id: number): string }).nameOf(row!.id);
      const docker = await dockerOf();
      const challenge = await docker.getContainer(name).inspect();
      // The challenge's container is on a warm entry point's network only, and that network is
      // as closed as an instance's own (internal, no host address on its bridge).
      const network = challenge.HostConfig.NetworkMode!;
      expect(warmNamed([network])).toEqual([network]);
      expect(Object.keys(challenge.NetworkSettings.Networks)).toEqual([network]);
      const entry = await docker.getContainer(`${network}-entry`).inspect();
      expect(entry.Config.Labels['ctf.network']).toBe(network);
      expect(entry.HostConfig.PortBindings).toEqual({
        [`${state.ports[0]!.port}/tcp`]: [{ HostIp: '', HostPort: String(state.ports[0]!.port) }],
      });
      expect(challenge.HostConfig.CapDrop).toEqual(['ALL']);
      const info = await docker.getNetwork(network).inspect();
      expect(info.Internal).toBe(true);
      expect(info.Options?.['com.docker.network.bridge.inhibit_ipv4']).toBe('true');
      expect(Object.keys(entry.NetworkSettings.Networks).sort()).toEqual(['bridge', network].sort());

      // The next sweep makes a warm one again (the taken one is Red's, not counted); Blue's start
      // takes another. A sweep makes nothing while a start is under way, and Red's start may still
      // be ending after its row says running.
      await until('Red’s start to end', async () => launchesOf(t.ctx).size === 0);
      await sweepInstances(t.ctx);
      const refilled = warmNamed((await onEngine()).containers.map((c) => c.name));
      expect(refilled).toHaveLength(3);
      expect(refilled).toContain(`${network}-entry`);
      expect((await bob.post('/api/ctf/instance/start', { challenge_id: box.id })).status).toBe(200);
      const blue = await untilRunning(bob, box.id);
      expect(blue.ports[0]!.port).not.toBe(state.ports[0]!.port);

      // Stop: the instance's containers and the warm network it took are gone.
      expect((await alice.post('/api/ctf/instance/stop', { challenge_id: box.id })).status).toBe(200);
      const after = await onEngine();
      expect(after.containers.map((c) => c.name)).not.toContain(name);
      expect(after.containers.map((c) => c.name)).not.toContain(`${network}-entry`);
      expect(after.networks).not.toContain(network);
      // Red's port is not given to anyone again through a warm entry point.
      await sweepInstances(t.ctx);
      const left = (await onEngine()).containers.filter((c) => c.labels['ctf.ports']);
      expect(left.map((c) => c.labels['ctf.ports'])).not.toContain(
        JSON.stringify([{ port: 1337, protocol: 'tcp', hostPort: state.ports[0]!.port }]),
      );

      // The setting at 0 removes every warm entry point and its network.
      expect((await bob.post('/api/ctf/instance/stop', { challenge_id: box.id })).status).toBe(200);
      t.ctx.config.instances.warmEntries = 0;
      await sweepInstances(t.ctx);
      const none = await onEngine();
      expect(none.containers).toEqual([]);
      expect(none.networks).toEqual([]);
    }, 120_000);

    it('a start that fails behind a warm entry point takes it down: its port is never another team’s', async () => {
      await setUp({ INSTANCE_WARM_ENTRIES: '1', INSTANCE_PORT_RANGE: '29400-29499' });
      const broken = await addChallenge(t, {
        name: 'Broken',
        flag: 'flag{broken}',
        per_team: true,
        instance: instanceDefinition({ image: 'ctf-no-such-image:never' }),
      });
      // Only the broken challenge keeps a warm entry point (the other is deactivated).
      await t.ctx.database.db
        .updateTable('challenges')
        .set({ is_active: 0 })
        .where('id', '!=', broken.id)
        .execute();
      await sweepInstances(t.ctx);
      const warm = (await onEngine()).containers.filter((c) => warmNamed([c.name]).length === 1);
      expect(warm).toHaveLength(1);
      const warmPort = (JSON.parse(warm[0]!.labels['ctf.ports']!) as { hostPort: number }[])[0]!.hostPort;

      expect((await alice.post('/api/ctf/instance/start', { challenge_id: broken.id })).status).toBe(200);
      await until(
        'the start to fail',
        async () => (await alice.get(`/api/ctf/instance?challenge_id=${broken.id}`)).status === 503,
      );
      const [row] = await t.ctx.database.db.selectFrom('instances').select(['ports', 'state']).execute();
      expect(row!.state).toBe('failed');
      // The failed row carries the warm entry point's port (its team was shown it) ...
      expect((JSON.parse(row!.ports) as { hostPort: number }[])[0]!.hostPort).toBe(warmPort);
      // ... and that entry point goes (the row is marked failed first, then the engine removes it,
      // and the start ends: a sweep makes no warm entry point while a start is under way); the
      // next one is a new entry point. Its port is a random free one of the range, which may be
      // the same number again: the failed row shows no address, so no team is sent to it.
      await until(
        'the failed start to end and its entry point to be removed',
        async () =>
          launchesOf(t.ctx).size === 0 &&
          !(await onEngine()).containers.some((c) => c.name === warm[0]!.name),
      );
      await sweepInstances(t.ctx);
      const next = (await onEngine()).containers.filter((c) => warmNamed([c.name]).length === 1);
      expect(next).toHaveLength(1);
      expect(next[0]!.name).not.toBe(warm[0]!.name);
      const failedView = await alice.get(`/api/ctf/instance?challenge_id=${broken.id}`);
      expect(failedView.status).toBe(503);
      expect(JSON.stringify(failedView.body)).not.toContain(String(warmPort));
    }, 60_000);

    it('a host port another program holds: the start moves to another random port of the range', async () => {
      // Another program holds the first port of a two-port range on every address; the second is
      // free. Below the kernel's ephemeral ports, so no client socket of this machine takes them.
      const { range, holders } = await holdFreeRun(29300, 29400, 2, 1);
      held.push(...holders);
      const box = await setUp({ INSTANCE_WARM_ENTRIES: '0', INSTANCE_PORT_RANGE: `${range[0]}-${range[1]}` });
      // The random pick lands on the held port first.
      vi.spyOn(Math, 'random').mockReturnValue(0);
      const started = await alice.post('/api/ctf/instance/start', { challenge_id: box.id });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      expect(started.body.ports[0].port).toBe(range[0]);
      const state = await untilRunning(alice, box.id);
      expect(state.ports[0]!.port).toBe(range[1]);
      expect((await readService('127.0.0.1', range[1])).trim()).toMatch(/^flag\{warm_[0-9a-f]{16}\}$/);
      const ports = await t.ctx.database.db.selectFrom('instance_ports').select('host_port').execute();
      expect(ports.map((p) => p.host_port)).toEqual([range[1]]);
    }, 60_000);

    it('a warm entry point whose host port another program holds goes to another port of the range in the same sweep', async () => {
      // Three of four ports held: the sweep's random picks may meet them, but never twice the same.
      const { range, holders } = await holdFreeRun(29500, 29600, 4, 3);
      held.push(...holders);
      await setUp({ INSTANCE_WARM_ENTRIES: '1', INSTANCE_PORT_RANGE: `${range[0]}-${range[1]}` });
      await sweepInstances(t.ctx);
      const warm = (await onEngine()).containers.filter((c) => warmNamed([c.name]).length === 1);
      expect(warm).toHaveLength(1);
      expect(JSON.parse(warm[0]!.labels['ctf.ports']!)).toEqual([
        { port: 1337, protocol: 'tcp', hostPort: range[1] },
      ]);
      expect(warm[0]!.state).toBe('running');
    }, 60_000);
  });
}

/** Listens on PORT on every address, or rejects (another program holds it). */
function listenOn(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((s) => s.destroy());
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => resolve(server));
  });
}

/**
 * The first LENGTH consecutive ports of FROM..TO that are all free, the first HOLD of them held by
 * listeners of ours (the others closed again): the range and the listeners.
 */
async function holdFreeRun(from: number, to: number, length: number, hold: number) {
  for (let port = from; port + length - 1 <= to; port += length) {
    const servers: net.Server[] = [];
    for (let p = port; p < port + length; p++) {
      const server = await listenOn(p).catch(() => null);
      if (!server) break;
      servers.push(server);
    }
    const free = servers.length === length;
    for (const server of free ? servers.slice(hold) : servers) await new Promise((r) => server.close(r));
    if (free) return { range: [port, port + length - 1] as const, holders: servers.slice(0, hold) };
  }
  throw new Error(`no ${length} free ports in a row between ${from} and ${to}`);
}
