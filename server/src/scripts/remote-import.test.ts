import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../test/build-test-app.js';
import { listChallengesForAdmin } from '../modules/challenges/challenges.service.js';
import { remoteImportCommand } from './challenges.js';
import { importUrl } from './remote-import.js';

const SAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/sample-challenges');

/** `npm run challenges -- import PATH --remote URL` against a started app, over real HTTP. */
describe('npm run challenges -- import --remote', () => {
  let t: TestApp;
  let site: string;

  beforeEach(async () => {
    t = await buildTestApp('sqlite');
    site = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterEach(async () => {
    await t.close();
  });

  async function tokenOf(client: TestClient, scopes?: string[]): Promise<{ _id: string; token: string }> {
    const res = await client.post('/api/user/tokens', {
      name: 'challenge sync',
      ...(scopes ? { scopes } : {}),
    });
    expect(res.status).toBe(200);
    return res.body;
  }

  it('uploads the folder with the token: a dry run first, then the import', async () => {
    const { token } = await tokenOf(await t.login('author', { role: 'author' }), ['author']);
    const dry = await remoteImportCommand(['import', SAMPLES, '--remote', site, '--dry-run'], token)!;
    expect(dry.out).toContain('Dry run: 3 challenge(s) would be created and 0 updated');
    expect(dry.code).toBe(0);
    expect(await listChallengesForAdmin(t.ctx)).toEqual([]);

    const run = await remoteImportCommand(['import', SAMPLES, '--remote', site], token)!;
    expect(run.out).toContain('Imported 3 challenge(s): 3 created, 0 updated.');
    expect(run.code).toBe(0);
    expect((await listChallengesForAdmin(t.ctx)).map((c) => c.name).sort()).toEqual([
      'Caesar Salad',
      'First Steps',
      'Regex Club',
    ]);
    // The audit log names the token's user, as for an import from the admin panel.
    const audit = await t.ctx.database.db.selectFrom('audit_log').select('admin_name').execute();
    expect(audit.length).toBeGreaterThan(0);
    expect(new Set(audit.map((a) => a.admin_name))).toEqual(new Set(['author']));
  });

  it('is refused with a player’s token, one without the author scope, a revoked one, or none', async () => {
    const player = await tokenOf(await t.login('player'));
    const refused = await remoteImportCommand(['import', SAMPLES, '--remote', site], player.token)!;
    expect(refused).toEqual({
      code: 1,
      out: 'The site refused the import (403): This token does not allow that.\n',
    });
    const reader = await tokenOf(await t.login('writer', { role: 'author' }), ['read', 'play']);
    const unscoped = await remoteImportCommand(['import', SAMPLES, '--remote', site], reader.token)!;
    expect(unscoped).toEqual({
      code: 1,
      out: 'The site refused the import (403): This token does not allow that.\n',
    });

    const adminClient = await t.login('root', { admin: true });
    const admin = await tokenOf(adminClient, ['author']);
    await adminClient.post('/api/user/tokens/delete', { token_id: admin._id });
    const revoked = await remoteImportCommand(['import', SAMPLES, '--remote', site], admin.token)!;
    expect(revoked.code).toBe(1);
    expect(revoked.out).toMatch(/^The site refused the import \(401\): This API token is not valid/);

    const none = await remoteImportCommand(['import', SAMPLES, '--remote', site], undefined)!;
    expect(none.code).toBe(2);
    expect(none.out).toContain('Set CTF_TOKEN');
    expect(await listChallengesForAdmin(t.ctx)).toEqual([]);
  });

  it('sends a token only over https, or http to this machine', () => {
    expect(String(importUrl('https://ctf.example.org', false))).toBe(
      'https://ctf.example.org/api/admin/ctf/import',
    );
    expect(String(importUrl('http://127.0.0.1:3000/', true))).toBe(
      'http://127.0.0.1:3000/api/admin/ctf/import?dry_run=1',
    );
    expect(importUrl('http://ctf.example.org', false)).toMatch(/needs an https:\/\/ address/);
    expect(importUrl('ctf.example.org', false)).toMatch(/needs the site's address/);
    expect(remoteImportCommand(['export', 'x'], 'ctf_x')).toBeNull();
    expect(remoteImportCommand(['import', SAMPLES], 'ctf_x')).toBeNull();
  });
});
