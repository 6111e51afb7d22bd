import { execFile } from 'node:child_process';
import net from 'node:net';
import { networkInterfaces } from 'node:os';
import { promisify } from 'node:util';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge, makeTeam, openSite } from '../../../test/compete.js';
import { dockerEngine } from '../../../test/docker.js';
import {
  ENTRY_IMAGE,
  FLAG_SERVICE_IMAGE,
  instanceDefinition,
  instanceEnv,
  readService,
  requireImage,
  setChallengeHost,
  untilRunning,
} from '../../../test/instance-fixtures.js';
import { driverOf } from './runtime.js';

/**
 * No way out of the container (real engine): from inside a running instance, the host's bridge
 * address, a port this machine listens on for every address (as the site does), another team's
 * instance (its container address and the host's published port) and a listener on another
 * Docker network all fail within a second, while the same probe from a container on an ordinary
 * network reaches the host; the instance's network has no way off the machine (its configuration:
 * internal, no host address on its bridge); the player's connection in works; HTTP ports open
 * only with the team's link; egress goes through the entry point to public addresses only.
 * Only addresses of this machine are ever connected to.
 */
const engine = await dockerEngine('instance containment');
if (engine) {
  await requireImage(engine, FLAG_SERVICE_IMAGE);
  await requireImage(engine, ENTRY_IMAGE);
}
const run = promisify(execFile);
const RANGE = [35000, 35099] as const;

/**
 * Runs a probe inside a container: whether a TCP connection to ip:port opens within 1 s, and how
 * long the attempt took there (ms, measured inside: the engine's exec overhead is not counted).
 */
async function probeFrom(
  container: string,
  ip: string,
  port: number,
): Promise<{ open: boolean; ms: number }> {
  const script = `a=$(date +%s%N); if timeout 1 bash -c 'exec 3<>/dev/tcp/${ip}/${port}' 2>/dev/null; then r=OPEN; else r=CLOSED; fi; echo "$r $(( ($(date +%s%N) - a) / 1000000 ))"`;
  const { stdout } = await run('docker', ['exec', container, 'bash', '-c', script], {
    env: { ...process.env, ...engine!.env },
    timeout: 20_000,
  });
  const [state, ms] = stdout.trim().split(' ');
  return { open: state === 'OPEN', ms: Number(ms) };
}
const opensFrom = async (container: string, ip: string, port: number) =>
  (await probeFrom(container, ip, port)).open;

/** Asks the entry point's egress proxy (from inside) to CONNECT to an address: its status line. */
async function egressAsk(container: string, target: string): Promise<string> {
  const script = `exec 3<>/dev/tcp/entry/3128 && printf 'CONNECT ${target} HTTP/1.1\\r\\nHost: ${target}\\r\\n\\r\\n' >&3 && timeout 2 head -1 <&3`;
  const { stdout } = await run('docker', ['exec', container, 'bash', '-c', script], {
    env: { ...process.env, ...engine!.env },
    timeout: 10_000,
  }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  return stdout.trim();
}

function hostAddress(): string {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? [])
      if (a.family === 'IPv4' && !a.internal && !/^10\.2(09|10)\./.test(a.address)) return a.address;
  throw new Error('no external IPv4 address on this machine');
}

describe.skipIf(!engine)('contained instances (real engine)', () => {
  let t: TestApp;
  let admin: TestClient;
  let alice: TestClient;
  let bob: TestClient;
  let docker: Docker;
  let listener: net.Server;
  let listenerPort: number;
  let other: { network: Docker.Network; container: Docker.Container; ip: string };

  beforeAll(async () => {
    t = await buildTestApp('sqlite', instanceEnv(engine!.host, `${RANGE[0]}-${RANGE[1]}`));
    admin = await t.login('boss', { admin: true });
    alice = await t.login('alice');
    bob = await t.login('bob');
    await makeTeam(t, 'Red', [alice.user!.id]);
    await makeTeam(t, 'Blue', [bob.user!.id]);
    await openSite(t);
    await setChallengeHost(admin);
    docker = await (driverOf(t.ctx) as unknown as { docker(): Promise<Docker> }).docker();
    // A port this machine listens on for every address, as the site does.
    listener = net.createServer((s) => {
      // A probe may reset its connection (the control probe that does reach it, timing out): an
      // unhandled 'error' on the accepted socket would fail the whole run.
      s.on('error', () => {});
      s.end('site\n');
    });
    await new Promise<void>((r) => listener.listen(0, '0.0.0.0', r));
    listenerPort = (listener.address() as net.AddressInfo).port;
    // A listener on another (ordinary) Docker network.
    const network = await docker.createNetwork({ Name: `ctf-test-other-${process.pid}`, Driver: 'bridge' });
    const container = await docker.createContainer({
      Image: FLAG_SERVICE_IMAGE,
      Env: ['FLAG=other'],
      HostConfig: { NetworkMode: `ctf-test-other-${process.pid}` },
    });
    await container.start();
    const info = await container.inspect();
    other = {
      network,
      container,
      ip: info.NetworkSettings.Networks[`ctf-test-other-${process.pid}`]!.IPAddress,
    };
  }, 60_000);
  afterAll(async () => {
    for (const row of await t.ctx.database.db.selectFrom('instances').select('id').execute())
      await driverOf(t.ctx).remove(row.id);
    await other?.container.remove({ force: true }).catch(() => {});
    await other?.network.remove().catch(() => {});
    listener?.close();
    await t.close();
  });

  it('reaches nothing from inside; players still reach it; its network has no way off the machine', async () => {
    const tcp = await addChallenge(t, {
      name: 'Shell',
      flag: 'flag{shell}',
      per_team: true,
      // Whatever is stored (written to the database past the checks), only the policy's run.
      instance: instanceDefinition(),
    });
    await t.ctx.database.db
      .updateTable('challenges')
      .set({
        instance: JSON.stringify({
          ...instanceDefinition(),
          capabilities: ['SYS_ADMIN', 'NET_RAW', 'CHOWN'],
          egress: false,
        }),
      })
      .where('id', '=', tcp.id)
      .execute();
    await alice.post('/api/ctf/instance/start', { challenge_id: tcp.id });
    await bob.post('/api/ctf/instance/start', { challenge_id: tcp.id });
    const red = await untilRunning(alice, tcp.id);
    const blue = await untilRunning(bob, tcp.id);
    // The player's connection in works.
    expect((await readService('127.0.0.1', red.ports[0]!.port)).trim()).toMatch(
      /^flag\{shell_[0-9a-f]{16}\}$/,
    );

    const containers = await docker.listContainers({
      filters: JSON.stringify({ label: [`ctf.site=${t.config.instances.site}`, 'ctf.role=challenge'] }),
    });
    expect(containers).toHaveLength(2);
    const byCompetitor = new Map<string, Docker.ContainerInspectInfo>();
    for (const c of containers) {
      const info = await docker.getContainer(c.Id).inspect();
      byCompetitor.set(info.Config.Labels['ctf.competitor']!, info);
    }
    const [redInfo, blueInfo] = [...byCompetitor.values()].sort((a, b) => (a.Created < b.Created ? -1 : 1));
    // docker inspect: no capability outside the policy, nothing of the host's.
    for (const info of [redInfo!, blueInfo!]) {
      expect(info.HostConfig.CapAdd).toEqual(['CHOWN']);
      expect(info.HostConfig.CapDrop).toEqual(['ALL']);
      expect(info.HostConfig.Privileged).toBe(false);
      expect(info.HostConfig.Binds ?? []).toEqual([]);
      expect(info.HostConfig.Devices ?? []).toEqual([]);
      expect(info.HostConfig.PortBindings ?? {}).toEqual({});
      expect(info.HostConfig.PidMode || '').toBe('');
      expect(info.HostConfig.IpcMode).toBe('private');
      // Its one network: internal, and no address of the host on its bridge (the route it has
      // leads to a gateway nobody holds): no way off the machine.
      const networks = Object.keys(info.NetworkSettings.Networks);
      expect(networks).toEqual([info.Name.slice(1)]);
      const net = await docker.getNetwork(networks[0]!).inspect();
      expect(net.Internal).toBe(true);
      expect(net.Options!['com.docker.network.bridge.inhibit_ipv4']).toBe('true');
    }
    const redId = redInfo!.Id;
    const blueIp = Object.values(blueInfo!.NetworkSettings.Networks)[0]!.IPAddress;
    const ownGateway = Object.values(redInfo!.NetworkSettings.Networks)[0]!.Gateway;
    const bridge = await docker.getNetwork('bridge').inspect();
    const bridgeAddress = bridge.IPAM!.Config![0]!.Gateway as string;
    const host = hostAddress();

    // The probe itself works: from a container on an ordinary network the host answers.
    expect(await opensFrom(other.container.id, bridgeAddress, listenerPort)).toBe(true);
    expect(await opensFrom(redId, '127.0.0.1', 1337)).toBe(true);
    const targets: [string, number, string][] = [
      [bridgeAddress, listenerPort, "the host's bridge address"],
      [ownGateway, listenerPort, "its own network's gateway"],
      [host, listenerPort, "the site's port on this machine's address"],
      [host, blue.ports[0]!.port, "another team's published port"],
      [bridgeAddress, blue.ports[0]!.port, "another team's port through the bridge"],
      [blueIp, 1337, "another team's container address"],
      [other.ip, 1337, 'a listener on another Docker network'],
    ];
    for (const [ip, port, what] of targets) {
      const probe = await probeFrom(redId, ip, port);
      expect(probe.open, what).toBe(false);
      // Refused, or cut at the probe's 1 s bound (plus the shell's own start on a loaded machine).
      expect(probe.ms, what).toBeLessThan(2_000);
    }
    // Without egress the entry point offers no proxy.
    expect(await egressAsk(redId, `${host}:${listenerPort}`)).not.toMatch(/^HTTP/);
  }, 120_000);

  it('HTTP instances answer only with the team’s link; a sweep of the range finds none', async () => {
    const web = await addChallenge(t, {
      name: 'Web',
      flag: 'flag{web}',
      per_team: true,
      instance: instanceDefinition({ ports: [{ port: 1337, protocol: 'http' }], env: { MODE: 'http' } }),
    });
    await alice.post('/api/ctf/instance/start', { challenge_id: web.id });
    const state = await untilRunning(alice, web.id);
    const { port, url } = state.ports[0]!;
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/_instance/[A-Za-z0-9_-]{32}$`));
    // The sweep: every port of the range, without the link, answers nothing of an instance.
    for (let p = RANGE[0]; p <= RANGE[1]; p++) {
      const res = await fetch(`http://127.0.0.1:${p}/`, { signal: AbortSignal.timeout(1000) }).catch(
        () => null,
      );
      if (res) {
        expect(res.status, `port ${p}`).toBe(404);
        expect(await res.text()).not.toContain('flag');
      }
    }
    // The team's link sets the cookie and goes to /, which then answers with the team's flag.
    const door = await fetch(url!, { redirect: 'manual' });
    expect(door.status).toBe(302);
    const cookie = door.headers.get('set-cookie')!.split(';')[0]!;
    const page = await fetch(`http://127.0.0.1:${port}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/flag\{web_[0-9a-f]{16}\}/);
    // Admins see the link; a monitor sees the team and the state only.
    const monitor = await t.login('mo', { role: 'monitor' });
    const forAdmin = (await admin.get('/api/admin/instances')).body.find(
      (i: { challenge: string }) => i.challenge === 'Web',
    );
    expect(forAdmin.addresses).toEqual([url]);
    const forMonitor = (await monitor.get('/api/admin/instances')).body.find(
      (i: { challenge: string }) => i.challenge === 'Web',
    );
    expect(forMonitor).toMatchObject({ team: 'Red', state: 'running', addresses: [] });
  }, 120_000);

  it('egress: the entry point’s proxy refuses this machine, private ranges and metadata; direct routes still fail', async () => {
    const out = await addChallenge(t, {
      name: 'Fetcher',
      flag: 'flag{out}',
      per_team: true,
      instance: instanceDefinition({ egress: true }),
    });
    await bob.post('/api/ctf/instance/start', { challenge_id: out.id });
    const blue = await untilRunning(bob, out.id);
    const [c] = await docker.listContainers({
      filters: JSON.stringify({
        label: [`ctf.site=${t.config.instances.site}`, 'ctf.role=challenge', `ctf.challenge=${out.id}`],
      }),
    });
    const info = await docker.getContainer(c!.Id).inspect();
    expect(info.Config.Env).toContain('HTTPS_PROXY=http://entry:3128');
    const host = hostAddress();
    const bridge = (await docker.getNetwork('bridge').inspect()).IPAM!.Config![0]!.Gateway as string;
    for (const target of [
      `${host}:${listenerPort}`,
      `${bridge}:${listenerPort}`,
      `127.0.0.1:${blue.ports[0]!.port}`,
      `${other.ip}:1337`,
      '169.254.169.254:80',
      'localhost:22',
    ]) {
      expect(await egressAsk(c!.Id, target), target).toMatch(/^HTTP\/1\.1 403 /);
    }
    expect(await opensFrom(c!.Id, host, listenerPort)).toBe(false);
    expect((await readService('127.0.0.1', blue.ports[0]!.port)).trim()).toMatch(/^flag\{out_/);
  }, 120_000);

  it('knows public addresses from the rest without asking anyone', async () => {
    const { isPublic } = await import('../../../../scripts/docker/entry-point/proxy.mjs');
    for (const a of ['1.1.1.1', '8.8.8.8', '2606:4700::1111']) expect(isPublic(a), a).toBe(true);
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.17.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '192.0.2.2',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:10.0.0.1',
      '2001:db8::1',
      'not an address',
    ])
      expect(isPublic(a), a).toBe(false);
  });
});
