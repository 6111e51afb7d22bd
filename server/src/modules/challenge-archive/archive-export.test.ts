import type { AdminChallenge } from '@ctf/contract';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ORIGIN, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { TWO, adminList, multipart, postImport } from '../../../test/archive-upload.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { readZipArchive } from './archive-reader.js';
import { zipBuffer } from './archive-packing.js';

/** What makes two challenges the same, leaving out ids and live figures. */
function comparable(list: AdminChallenge[]) {
  const names = new Map(list.map((c) => [c._id, c.name]));
  return list
    .map((c) => ({
      name: c.name,
      description: c.description,
      category: c.category,
      difficulty: c.difficulty,
      written_by: c.written_by,
      points: c.points,
      scoring: c.scoring,
      is_active: c.is_active,
      hlinks: c.hlinks,
      flags: c.flags,
      max_attempts: c.max_attempts,
      per_team: c.per_team,
      per_team_on_page: c.per_team_on_page,
      release_at: c.release_at,
      hints: c.hints.map((h) => ({ title: h.title, content: h.content, cost: h.cost })),
      prerequisites: c.prerequisites.map((id) => names.get(id)).sort(),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

for (const kind of testDatabaseKinds()) {
  describe(`challenge.yml export on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;

    beforeEach(async () => {
      t = await buildTestApp(kind);
      admin = await t.login('boss', { admin: true });
    });
    afterEach(async () => {
      await t.close();
    });

    it('export then import into an empty site gives identical challenges', async () => {
      expect((await postImport(admin, TWO())).status).toBe(200);
      // A challenge written through the admin form too, with a stored ZIP and HTML with blank lines.
      const { payload, headers } = multipart(
        'handout.zip',
        await zipBuffer([{ name: 'a.bin', content: Buffer.from([1, 2, 3]) }]),
      );
      expect((await admin.post('/api/admin/ctf/upload', payload, headers)).status).toBe(200);
      const form = await admin.post('/api/admin/ctf/create_challenge', {
        name: 'Hand Made',
        description: '<h2>Title</h2>\n<p>One</p>\n\n<pre><code>line 1\n\n\nline 4\n</code></pre>\n<p>End</p>',
        category: 'Forensics',
        difficulty: 'Hard',
        written_by: 'admin',
        flags: [{ type: 'regex', content: '(?i)flag\\{hand\\}' }],
        files: ['handout.zip'],
        hints: [{ title: 'Free', content: 'A\n\nB', cost: 0 }],
        release_at: null,
      });
      expect(form.status, JSON.stringify(form.body)).toBe(200);
      const perTeam = await admin.post('/api/admin/ctf/create_challenge', {
        name: 'Team Flag',
        category: 'General',
        difficulty: 'Easy',
        written_by: 'admin',
        flag: 'flag{base}',
        per_team: true,
        per_team_on_page: true,
        // A container per team (issue 30): `image` and our `instance` key carry it.
        instance: {
          image: 'team-box:2',
          ports: [{ port: 8080, protocol: 'http' }],
          memoryMb: 128,
          env: { MODE: 'hard' },
          capabilities: ['NET_BIND_SERVICE'],
        },
      });
      expect(perTeam.status, JSON.stringify(perTeam.body)).toBe(200);
      const original = comparable(await adminList(admin));

      const exported = await t.app.inject({
        method: 'GET',
        url: '/api/admin/ctf/export',
        headers: { cookie: admin.cookie! },
      });
      expect(exported.statusCode).toBe(200);
      expect(exported.headers['content-type']).toBe('application/zip');
      expect(String(exported.headers['content-disposition'])).toMatch(/^attachment; filename="challenges-/);
      const zip = exported.rawPayload;
      const entries = await readZipArchive(zip, 'export.zip');
      expect([...entries.keys()].sort()).toEqual([
        'falling-star/challenge.yml',
        'falling-star/falling-star.zip',
        'hand-made/challenge.yml',
        'hand-made/handout.zip',
        'team-flag/challenge.yml',
        'warmup/challenge.yml',
      ]);
      expect(entries.get('team-flag/challenge.yml')!.toString()).toContain('per_team: true');
      expect(entries.get('team-flag/challenge.yml')!.toString()).toContain('image: team-box:2');
      expect(entries.get('falling-star/challenge.yml')!.toString()).toContain('state: hidden');

      const fresh = await buildTestApp(kind);
      try {
        const freshAdmin = await fresh.login('boss', { admin: true });
        const res = await postImport(freshAdmin, zip);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.warnings).toEqual([]);
        expect(comparable(await adminList(freshAdmin))).toEqual(original);
        for (const f of ['falling-star.zip', 'handout.zip']) {
          expect(readFileSync(path.join(fresh.config.uploadDir, f))).toEqual(
            readFileSync(path.join(t.config.uploadDir, f)),
          );
        }
        // And again: a second import of the same export changes nothing.
        const again = await postImport(freshAdmin, zip);
        expect(again.body.updated.sort()).toEqual(['Falling Star', 'Hand Made', 'Team Flag', 'Warmup']);
        expect(comparable(await adminList(freshAdmin))).toEqual(original);
      } finally {
        await fresh.close();
      }
    });

    it('is admin only and checks the Origin like every admin write; export is audited', async () => {
      const player = await t.login('player');
      expect((await postImport(player, TWO())).status).toBe(403);
      expect((await player.get('/api/admin/ctf/export')).status).toBe(403);
      const { payload, headers } = multipart('c.zip', TWO());
      const foreign = await admin.post('/api/admin/ctf/import', payload, {
        ...headers,
        origin: 'https://evil.example',
      });
      expect(foreign.status).toBe(403);
      expect(await adminList(admin)).toEqual([]);
      expect(TEST_ORIGIN).toBeTruthy();
      expect((await admin.get('/api/admin/ctf/export')).status).toBe(200);
      const rows = await t.ctx.database.db.selectFrom('audit_log').select('action').execute();
      expect(rows.map((r) => r.action)).toEqual(['challenge.export']);
    });
  });
}
