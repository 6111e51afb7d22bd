import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { postImport } from '../../../test/archive-upload.js';
import { makeZip } from '../../lib/zip.js';

const yml = (extra: string) => `name: Box
author: club
category: Binary Exploitation
description: Connect to your own instance.
value: 200
flags:
  - flag{box}
per_team: true
${extra}`;

const zipOf = (text: string) => makeZip([{ name: 'box/challenge.yml', content: text }]);

describe('challenge.yml and instances (issue 30)', () => {
  let t: TestApp;
  let admin: TestClient;
  beforeEach(async () => {
    t = await buildTestApp('sqlite');
    admin = await t.login('boss', { admin: true });
  });
  afterEach(async () => {
    await t.close();
  });
  const stored = async () => (await admin.get('/api/admin/ctf/fetch_challenges')).body[0].instance;

  it("reads ctfcli's image and connection_info (its port and scheme), with the defaults", async () => {
    const res = await postImport(
      admin,
      zipOf(yml('image: pwn-box:1\nconnection_info: nc challenges.example.org 1337\n')),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.warnings).toEqual([]);
    expect(await stored()).toEqual({
      image: 'pwn-box:1',
      ports: [{ port: 1337, protocol: 'tcp' }],
      memoryMb: 256,
      cpus: 0.5,
      pids: 128,
      lifetimeMinutes: 30,
      env: {},
      egress: false,
    });
    await postImport(
      admin,
      zipOf(yml('image: web-box:1\nconnection_info: https://web.example.org:8443/login\n')),
    );
    expect((await stored()).ports).toEqual([{ port: 8443, protocol: 'http' }]);
    // Absent on an update: the challenge has no container any more (like every absent key).
    await postImport(admin, zipOf(yml('')));
    expect(await stored()).toBeNull();
  });

  it('takes the rest under instance:, checked by the admin form’s schema with the line named', async () => {
    const ok = await postImport(
      admin,
      zipOf(
        yml(
          'image: pwn-box:1\ninstance:\n  ports:\n    - {port: 31337, protocol: tcp}\n  lifetimeMinutes: 45\n  env: {LEVEL: "3"}\n',
        ),
      ),
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await stored()).toMatchObject({
      ports: [{ port: 31337, protocol: 'tcp' }],
      lifetimeMinutes: 45,
      env: { LEVEL: '3' },
    });

    const bad = await postImport(
      admin,
      zipOf(yml('image: pwn-box:1\ninstance:\n  ports: [{port: 1337, protocol: tcp}]\n  memoryMb: 2\n')),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { file: 'box/challenge.yml', line: 12, message: expect.stringContaining('memoryMb') },
    ]);

    for (const [extra, text] of [
      ['image: .\n', 'build the image on the challenge host'],
      ['image: pwn-box:1\n', "needs 'instance.ports'"],
      ['instance:\n  ports: [{port: 1, protocol: tcp}]\n', "'instance' needs 'image'"],
    ] as const) {
      const res = await postImport(admin, zipOf(yml(extra)), true);
      expect(res.status, extra).toBe(400);
      expect(res.body.errors[0].message).toContain(text);
    }
    const ignored = await postImport(admin, zipOf(yml('connection_info: nc host 1\n')), true);
    expect(ignored.body.warnings[0].message).toContain("'connection_info' is only read with 'image'");
  });
});
