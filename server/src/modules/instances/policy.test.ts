import { DEFAULT_INSTANCE_POLICY, INSTANCE_MESSAGES } from '@ctf/contract';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postImport } from '../../../test/archive-upload.js';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { instanceDefinition } from '../../../test/instance-fixtures.js';
import { makeZip } from '../../lib/zip.js';
import { ConfigError, loadConfig } from '../../config.js';

/**
 * The operator's box (INSTANCE_* variables): a challenge asking for more is refused with 400
 * naming the field and the limit on create, update and import; only an admin changes what an
 * instance runs (image, capabilities, writable root, egress); the policy is readable by staff.
 */
const form = { name: 'Box', category: 'General', difficulty: 'Easy', written_by: 'x', flag: 'flag{box}' };
const yml = (image: string, extra = '') =>
  `name: Yml Box\nauthor: x\ncategory: General\nvalue: 100\nflags:\n  - flag{y}\nimage: ${image}\ninstance:\n  ports:\n    - port: 1337\n      protocol: tcp\n${extra}`;

for (const kind of testDatabaseKinds()) {
  describe(`instance policy (${kind})`, () => {
    let t: TestApp;
    let admin: TestClient;
    let author: TestClient;

    beforeEach(async () => {
      t = await buildTestApp(kind, {
        DOCKER_HOST: 'unix:///nonexistent/docker.sock',
        INSTANCE_IMAGE_PREFIXES: 'ctf-, registry.club.example/ctf/',
        INSTANCE_MAX_MEMORY_MB: '512',
      });
      admin = await t.login('boss', { admin: true });
      author = await t.login('ada', { role: 'author' });
    });
    afterEach(async () => {
      await t.close();
    });

    it('answers the policy to admins, authors and monitors; not to players', async () => {
      const monitor = await t.login('mo', { role: 'monitor' });
      const player = await t.login('pat');
      const expected = {
        ...DEFAULT_INSTANCE_POLICY,
        maxMemoryMb: 512,
        imagePrefixes: ['ctf-', 'registry.club.example/ctf/'],
      };
      for (const c of [admin, author, monitor]) {
        const res = await c.get('/api/admin/instances/policy');
        expect(res.status).toBe(200);
        expect(res.body).toEqual(expected);
      }
      expect((await player.get('/api/admin/instances/policy')).status).toBe(403);
    });

    it('refuses a definition beyond the policy with 400 naming the field and the limit', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [
          { memoryMb: 1024 },
          'Invalid instance.memoryMb: this site allows at most 512 MB (INSTANCE_MAX_MEMORY_MB)',
        ],
        [{ cpus: 4 }, 'Invalid instance.cpus: this site allows at most 1 CPUs (INSTANCE_MAX_CPUS)'],
        [{ pids: 4096 }, 'Invalid instance.pids: this site allows at most 512 processes (INSTANCE_MAX_PIDS)'],
        [{ lifetimeMinutes: 600 }, 'Invalid instance.lifetimeMinutes: this site allows at most 120 minutes'],
        [{ capabilities: ['SYS_ADMIN'] }, 'Invalid instance.capabilities: SYS_ADMIN is never allowed'],
        [{ capabilities: ['NET_ADMIN'] }, 'Invalid instance.capabilities: NET_ADMIN is never allowed'],
        [
          { capabilities: ['AUDIT_WRITE'] },
          'Invalid instance.capabilities: AUDIT_WRITE is not allowed on this site',
        ],
        [
          { image: 'evil/rootkit:1' },
          "Invalid instance.image: 'evil/rootkit:1' is not under an allowed image prefix",
        ],
      ];
      for (const [extra, message] of cases) {
        const res = await admin.post('/api/admin/ctf/create_challenge', {
          ...form,
          instance: instanceDefinition(extra),
        });
        expect(res.status, JSON.stringify(extra)).toBe(400);
        expect(res.body.message).toContain(message);
      }
      // Inside the box: saved, with the allowed capability; then an update beyond it is refused.
      const ok = await admin.post('/api/admin/ctf/create_challenge', {
        ...form,
        instance: instanceDefinition({ memoryMb: 512, capabilities: ['NET_BIND_SERVICE'] }),
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      const [c] = (await admin.get('/api/admin/ctf/fetch_challenges')).body;
      expect(c.instance).toMatchObject({ memoryMb: 512, capabilities: ['NET_BIND_SERVICE'], egress: false });
      const update = await admin.post('/api/admin/ctf/update_challenge', {
        ...form,
        challenge_id: c._id,
        instance: instanceDefinition({ capabilities: ['SYS_PTRACE'] }),
      });
      expect(update.status).toBe(400);
      expect(update.body.message).toContain('instance.capabilities: SYS_PTRACE is never allowed');
      // The schema itself has no privileged mode, host namespaces, devices or mounts to ask for.
      for (const field of ['privileged', 'networkMode', 'pidMode', 'devices', 'binds', 'volumes']) {
        const res = await admin.post('/api/admin/ctf/create_challenge', {
          ...form,
          name: `Box ${field}`,
          instance: { ...instanceDefinition(), [field]: field === 'privileged' ? true : 'host' },
        });
        expect(res.status, field).toBe(400);
      }
    });

    it('refuses a challenge.yml beyond the policy, naming the field', async () => {
      const zip = makeZip([
        { name: 'box/challenge.yml', content: Buffer.from(yml('ctf-box:1', '  memoryMb: 2048\n')) },
      ]);
      const res = await postImport(admin, zip);
      expect(res.body.acknowledge).toBe(false);
      expect(JSON.stringify(res.body.errors)).toContain('instance.memoryMb: this site allows at most 512 MB');
      const image = makeZip([{ name: 'box/challenge.yml', content: Buffer.from(yml('other/box:1')) }]);
      expect(JSON.stringify((await postImport(admin, image)).body.errors)).toContain(
        "'other/box:1' is not under an allowed image prefix",
      );
    });

    it('lets an author edit everything but what runs: image, capabilities, writable root, egress (403)', async () => {
      // A new challenge with an instance: its image is an admin's choice.
      const create = await author.post('/api/admin/ctf/create_challenge', {
        ...form,
        instance: instanceDefinition(),
      });
      expect(create.status).toBe(403);
      expect(create.body.message).toBe(INSTANCE_MESSAGES.adminOnly(['image']));
      expect((await author.post('/api/admin/ctf/create_challenge', form)).status).toBe(200);
      const [c] = (await admin.get('/api/admin/ctf/fetch_challenges')).body;
      const edit = { ...form, challenge_id: c._id };
      // The admin gives it an instance; the author tunes the rest of it.
      expect(
        (await admin.post('/api/admin/ctf/update_challenge', { ...edit, instance: instanceDefinition() }))
          .status,
      ).toBe(200);
      const tuned = await author.post('/api/admin/ctf/update_challenge', {
        ...edit,
        description: 'now with a box',
        instance: instanceDefinition({ memoryMb: 128, lifetimeMinutes: 45, env: { MODE: 'hard' } }),
      });
      expect(tuned.status, JSON.stringify(tuned.body)).toBe(200);
      for (const [extra, fields] of [
        [{ image: 'ctf-other:1' }, ['image']],
        [{ capabilities: ['NET_BIND_SERVICE'] }, ['capabilities']],
        [{ writableRoot: true }, ['writableRoot']],
        [{ egress: true }, ['egress']],
        [{ writableRoot: true, egress: true }, ['writableRoot', 'egress']],
      ] as const) {
        const res = await author.post('/api/admin/ctf/update_challenge', {
          ...edit,
          instance: instanceDefinition({ memoryMb: 128, ...extra }),
        });
        expect(res.status, JSON.stringify(extra)).toBe(403);
        expect(res.body.message).toBe(INSTANCE_MESSAGES.adminOnly(fields));
      }
      // Removing the instance is a change of what runs too; leaving `instance` out changes nothing.
      expect((await author.post('/api/admin/ctf/update_challenge', { ...edit, instance: null })).status).toBe(
        403,
      );
      expect((await author.post('/api/admin/ctf/update_challenge', { ...edit, name: 'Box 2' })).status).toBe(
        200,
      );
      const [after] = (await admin.get('/api/admin/ctf/fetch_challenges')).body;
      expect(after.instance).toMatchObject({
        image: instanceDefinition().image,
        memoryMb: 128,
        egress: false,
      });
      // The admin may change them all.
      const egress = await admin.post('/api/admin/ctf/update_challenge', {
        ...edit,
        name: 'Box 2',
        instance: instanceDefinition({ egress: true, writableRoot: true, capabilities: ['CHOWN'] }),
      });
      expect(egress.status, JSON.stringify(egress.body)).toBe(200);
      // An author's challenge.yml that changes the image is refused, naming the field.
      const zip = makeZip([
        { name: 'box/challenge.yml', content: Buffer.from(yml('ctf-else:2').replace('Yml Box', 'Box 2')) },
      ]);
      const imported = await postImport(author, zip);
      expect(imported.body.acknowledge).toBe(false);
      expect(JSON.stringify(imported.body.errors)).toContain(
        'Only an admin may change what an instance runs',
      );
    });
  });
}

describe('instance policy from the environment', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ctf-policy-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the box, and refuses a capability that breaks a container whatever the setting says', () => {
    const c = loadConfig({
      DATA_DIR: dir,
      INSTANCE_CAPABILITIES: 'cap_chown, NET_BIND_SERVICE',
      INSTANCE_MAX_CPUS: '2',
      INSTANCE_RUNTIME: 'runsc',
      INSTANCE_ENGINE_TIMEOUT_SECONDS: '5',
    });
    expect(c.instances.policy).toMatchObject({
      capabilities: ['CHOWN', 'NET_BIND_SERVICE'],
      maxCpus: 2,
      runtime: 'runsc',
    });
    expect(c.instances.engineTimeoutMs).toBe(5000);
    expect(
      loadConfig({ DATA_DIR: dir, INSTANCE_CAPABILITIES: 'none' }).instances.policy.capabilities,
    ).toEqual([]);
    expect(loadConfig({ DATA_DIR: dir }).instances.policy).toEqual(DEFAULT_INSTANCE_POLICY);
    for (const cap of ['SYS_ADMIN', 'CAP_SYS_MODULE', 'net_admin', 'BPF']) {
      expect(() => loadConfig({ DATA_DIR: dir, INSTANCE_CAPABILITIES: `CHOWN,${cap}` })).toThrow(ConfigError);
      expect(() => loadConfig({ DATA_DIR: dir, INSTANCE_CAPABILITIES: cap })).toThrow(/is never allowed/);
    }
  });
});
