import { MESSAGES } from '@ctf/contract';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { BASICS, DYNAMIC, TWO, adminList, archive, postImport } from '../../../test/archive-upload.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { readZipArchive } from './archive-reader.js';
import { htmlAsMarkdown } from './archive-export.js';
import { zipBuffer } from './archive-packing.js';
import { importChallengeZip } from './archive.service.js';

function uploads(t: TestApp): string[] {
  return existsSync(t.config.uploadDir) ? readdirSync(t.config.uploadDir).sort() : [];
}

for (const kind of testDatabaseKinds()) {
  describe(`challenge.yml import on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;

    beforeEach(async () => {
      t = await buildTestApp(kind);
      admin = await t.login('boss', { admin: true });
    });
    afterEach(async () => {
      await t.close();
    });

    it('maps every ctfcli key onto a challenge, through the admin route', async () => {
      const res = await postImport(admin, TWO());
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        acknowledge: true,
        created: ['Falling Star', 'Warmup'],
        updated: [],
        errors: [],
      });
      expect(res.body.warnings).toEqual([
        { file: 'falling-star/challenge.yml', line: 32, message: "Unknown key 'tags' was ignored." },
      ]);

      const list = await adminList(admin);
      const star = list.find((c) => c.name === 'Falling Star')!;
      const warm = list.find((c) => c.name === 'Warmup')!;
      expect(warm).toMatchObject({
        description: '<p>Say <strong>hello</strong>.</p>\n<p>Then submit.</p>',
        category: 'General',
        difficulty: 'Easy',
        written_by: 'club',
        is_active: true,
        flags: [{ type: 'static', content: 'flag{warm}' }],
        scoring: { type: 'static' },
        hlinks: [],
        release_at: null,
        max_attempts: null,
      });
      expect(star).toMatchObject({
        category: 'Cryptography',
        // No difficulty key: the nearest to 500 points.
        difficulty: 'Extreme',
        description: '<p>Decrypt <em>it</em>.</p>',
        is_active: false,
        scoring: { type: 'dynamic', function: 'linear', initial: 500, minimum: 100, decay: 10 },
        flags: [
          { type: 'case_insensitive', content: 'flag{Star}' },
          { type: 'regex', content: 'flag\\{star-[0-9]+\\}' },
          { type: 'static', content: 'exact{one}' },
        ],
        release_at: '2026-05-01T08:00:00.000Z',
        max_attempts: 5,
        prerequisites: [warm._id],
        hlinks: ['falling-star.zip'],
      });
      expect(star.hints.map((h) => ({ title: h.title, content: h.content, cost: h.cost }))).toEqual([
        { title: 'Hint 1', content: '<p>Look up.</p>', cost: 0 },
        { title: 'Second', content: '<p>The key is <code>k</code>.</p>', cost: 25 },
      ]);
      // The files are packed into one ZIP upload, under their paths in the folder.
      const packed = await readZipArchive(
        readFileSync(path.join(t.config.uploadDir, 'falling-star.zip')),
        'x',
      );
      expect([...packed.entries()].map(([k, v]) => [k, v.toString()])).toEqual([
        ['dist/cipher.txt', 'uryyb'],
        ['notes.md', '# notes'],
      ]);
      expect(uploads(t)).toEqual(['falling-star.zip']);

      const audit = await t.ctx.database.db
        .selectFrom('audit_log')
        .select(['action', 'admin_name'])
        .orderBy('id')
        .execute();
      expect(audit.map((a) => a.action)).toEqual([
        'file.upload',
        'challenge.create',
        'challenge.create',
        'challenge.import',
      ]);
      expect(audit.every((a) => a.admin_name === 'boss')).toBe(true);
    });

    it('a dry run lists what it would do and writes nothing', async () => {
      const res = await postImport(admin, TWO(), true);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        acknowledge: true,
        created: ['Falling Star', 'Warmup'],
        updated: [],
        errors: [],
      });
      expect(res.body.message).toContain('nothing was written');
      expect(await adminList(admin)).toEqual([]);
      expect(uploads(t)).toEqual([]);
      expect(await t.ctx.database.db.selectFrom('files').selectAll().execute()).toEqual([]);
      expect(await t.ctx.database.db.selectFrom('audit_log').selectAll().execute()).toEqual([]);
    });

    it('reports every error with its file and line, and writes nothing', async () => {
      const bad = `name: Broken
author: club
category: Astrology
value: 100
flags:
  - flag{ok}
  - type: regex
    content: 'flag{(unclosed'
hints:
  - title: Costly
    content: x
    cost: -5
`;
      const res = await postImport(
        admin,
        archive({ 'warmup/challenge.yml': BASICS, 'broken/challenge.yml': bad, 'stray.txt': 'x' }),
        true,
      );
      expect(res.status).toBe(400);
      expect(res.body.acknowledge).toBe(false);
      expect(res.body.warnings).toEqual([
        {
          file: 'stray.txt',
          line: null,
          message: "'stray.txt' lies in no challenge folder and was ignored.",
        },
      ]);
      expect(res.body.errors).toEqual([
        {
          file: 'broken/challenge.yml',
          line: 3,
          message: expect.stringContaining("Unknown category 'Astrology'"),
        },
      ]);
      // Once the category is right, the schema's and the flag check's refusals carry their lines.
      const res2 = await postImport(
        admin,
        archive({ 'broken/challenge.yml': bad.replace('Astrology', 'General') }),
        true,
      );
      expect(res2.body.errors).toEqual([
        { file: 'broken/challenge.yml', line: 12, message: 'hints.0.cost: Hint cost must be 0 or more' },
      ]);
      const res3 = await postImport(
        admin,
        archive({ 'broken/challenge.yml': bad.replace('Astrology', 'General').replace('-5', '5') }),
      );
      expect(res3.body.errors).toEqual([
        {
          file: 'broken/challenge.yml',
          line: 7,
          message: expect.stringMatching(/^Invalid flags\.1: not a valid regular expression/),
        },
      ]);
      const yamlError = await postImport(
        admin,
        archive({ 'x/challenge.yml': 'name: [unclosed\nauthor: a\n' }),
      );
      expect(yamlError.body.errors).toEqual([
        { file: 'x/challenge.yml', line: expect.any(Number), message: expect.stringMatching(/^YAML: /) },
      ]);
      expect(await adminList(admin)).toEqual([]);
    });

    it('updates challenges matched by name and keeps hint unlocks of hints with the same title', async () => {
      expect((await postImport(admin, TWO())).status).toBe(200);
      const before = (await adminList(admin)).find((c) => c.name === 'Falling Star')!;
      const edited = archive({
        'falling-star/challenge.yml': DYNAMIC.replace('Decrypt *it*.', 'Decrypt it again.')
          .replace('state: hidden', 'state: visible')
          .replace('NAME', ''),
        'falling-star/dist/cipher.txt': 'uryyb jbeyq',
        'falling-star/notes.md': '# notes',
        'warmup/challenge.yml': BASICS.replace('name: Warmup', 'name: WARMUP'),
      });
      const res = await postImport(admin, edited);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ created: [], updated: ['Falling Star', 'WARMUP'] });
      const after = await adminList(admin);
      const star = after.find((c) => c.name === 'Falling Star')!;
      expect(star._id).toBe(before._id);
      expect(star.description).toBe('<p>Decrypt it again.</p>');
      expect(star.is_active).toBe(true);
      expect(star.hints.map((h) => h._id)).toEqual(before.hints.map((h) => h._id));
      // The challenge's own file was replaced in place.
      const packed = await readZipArchive(
        readFileSync(path.join(t.config.uploadDir, 'falling-star.zip')),
        'x',
      );
      expect(packed.get('dist/cipher.txt')!.toString()).toBe('uryyb jbeyq');
      expect(uploads(t)).toEqual(['falling-star.zip']);
    });

    it('inside the event window updates but creates nothing, naming docs/product.md message', async () => {
      await t.close();
      t = await buildTestApp(kind, {
        EVENT_START: '2026-03-01T00:00:00Z',
        EVENT_END: '2026-03-08T00:00:00Z',
      });
      admin = await t.login('boss', { admin: true });
      expect((await postImport(admin, archive({ 'warmup/challenge.yml': BASICS }))).status).toBe(200);
      t.clock.set('2026-03-03T12:00:00Z');
      admin = await t.login('boss', { admin: true });
      const res = await postImport(
        admin,
        archive({
          'warmup/challenge.yml': BASICS.replace('Say', 'Now say'),
          'new/challenge.yml': BASICS.replace('Warmup', 'Brand New'),
        }),
      );
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        { file: 'new/challenge.yml', line: 1, message: MESSAGES.createDisabled },
      ]);
      expect((await adminList(admin)).map((c) => c.name)).toEqual(['Warmup']);
      const update = await postImport(
        admin,
        archive({ 'warmup/challenge.yml': BASICS.replace('Say', 'Now say') }),
      );
      expect(update.status).toBe(200);
      expect(update.body.updated).toEqual(['Warmup']);
      expect((await adminList(admin))[0]!.description).toContain('Now say');
      // Allowed by the organisers, the import adds new challenges inside the window too.
      expect((await admin.post('/api/admin/settings', { allowCreateDuringEvent: true })).status).toBe(200);
      const allowed = await postImport(
        admin,
        archive({ 'new/challenge.yml': BASICS.replace('Warmup', 'Brand New') }),
      );
      expect(allowed.status).toBe(200);
      expect((await adminList(admin)).map((c) => c.name).sort()).toEqual(['Brand New', 'Warmup']);
    });

    it('is all or nothing: a refusal at write time leaves no challenge, row or file behind', async () => {
      // The first challenge is written (with its file) before the second one's cycle is found.
      const cyclic = archive({
        'a/challenge.yml': BASICS.replace('Warmup', 'A') + 'requirements: [B]\nfiles: [data.txt]\n',
        'a/data.txt': 'payload',
        'b/challenge.yml': BASICS.replace('Warmup', 'B') + 'requirements: [A]\n',
      });
      for (const dryRun of [true, false]) {
        const res = await postImport(admin, cyclic, dryRun);
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual([
          {
            file: 'b/challenge.yml',
            line: 11,
            message: 'Invalid prerequisites: they would form a cycle (a challenge would require itself)',
          },
        ]);
      }
      expect(await adminList(admin)).toEqual([]);
      expect(await t.ctx.database.db.selectFrom('files').selectAll().execute()).toEqual([]);
      expect(uploads(t)).toEqual([]);
    });

    it('refuses a file name another challenge owns, restoring nothing half-done', async () => {
      expect((await postImport(admin, TWO())).status).toBe(200);
      const bytes = readFileSync(path.join(t.config.uploadDir, 'falling-star.zip'));
      const other = archive({
        'other/challenge.yml': BASICS.replace('Warmup', 'Other') + 'files: [falling-star.zip]\n',
        'other/falling-star.zip': await zipBuffer([{ name: 'x.txt', content: Buffer.from('other') }]),
      });
      const res = await postImport(admin, other);
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ file: 'other/challenge.yml', line: 11 });
      expect(res.body.errors[0].message).toContain("'falling-star.zip'");
      expect(readFileSync(path.join(t.config.uploadDir, 'falling-star.zip'))).toEqual(bytes);
      expect(uploads(t)).toEqual(['falling-star.zip']);
    });

    it('the service reads the same archive as the route (what the CLI uses)', async () => {
      const result = await importChallengeZip(t.ctx, TWO(), 'two.zip', { dryRun: false });
      expect(result.created).toEqual(['Falling Star', 'Warmup']);
      expect(htmlAsMarkdown('<p>a</p>\n\n<p>b</p>')).toBe('<p>a</p>\n&#10;<p>b</p>');
    });
  });
}
