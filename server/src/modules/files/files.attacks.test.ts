import { adminApi } from '@ctf/contract';
import fc from 'fast-check';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { releasedTogether } from '../../../test/barrier.js';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { changedTables, snapshotDatabase } from '../../../test/db-snapshot.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { makeZip } from '../../lib/zip.js';
import { createChallenge } from '../challenges/challenges.service.js';
import { setSiteActive } from '../site/site.service.js';

/**
 * Attacks on uploads and downloads (docs/product.md §14), beyond files.test.ts: content that lies about
 * its type, names that try to leave the upload folder (path parts, absolute paths, NUL, Unicode
 * look-alikes of dots and slashes, RFC 5987 encoded names, header injection), racing uploads of
 * one name, and download names encoded every way, generated. A canary file planted beside the
 * upload folder is never read, overwritten or deleted.
 */

const CANARY = 'CANARY-OUTSIDE-THE-UPLOAD-FOLDER';
const ZIP = makeZip([{ name: 'inside.txt', content: 'inside' }]);
const BOUNDARY = '----attackBoundary0123456789';

/** A multipart body with the Content-Disposition line exactly as given (no client to tidy it). */
function rawMultipart(disposition: string, content: Buffer, type = 'application/zip') {
  return {
    payload: Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\n${disposition}\r\nContent-Type: ${type}\r\n\r\n`, 'utf8'),
      content,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

function upload(admin: TestClient, filename: string, content: Buffer = ZIP, type = 'application/zip') {
  const escaped = filename.replace(/"/g, '%22');
  const { payload, headers } = rawMultipart(
    `Content-Disposition: form-data; name="file"; filename="${escaped}"`,
    content,
    type,
  );
  return admin.post('/api/admin/ctf/upload', payload, headers);
}

/** A GET whose path reaches the server byte for byte (no client normalises it). */
function rawGet(port: number, rawPath: string, cookie: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: 'GET', path: rawPath, headers: { cookie } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('latin1') }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

for (const kind of testDatabaseKinds()) {
  describe(`file attacks on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;
    let canaryPath: string;

    /** Everything under the data folder except the upload folder's own entries, and the database files. */
    const outside = () =>
      readdirSync(t.config.dataDir)
        .filter((n) => n !== 'uploads' && !/^ctf(-events)?\.sqlite/.test(n) && n !== 'session-secret')
        .sort();
    const inside = () => (existsSync(t.config.uploadDir) ? readdirSync(t.config.uploadDir).sort() : []);
    const expectCanaryIntact = () => {
      expect(readFileSync(canaryPath, 'utf8')).toBe(CANARY);
      expect(outside()).toEqual(['canary.zip']);
    };

    beforeEach(async () => {
      t = await buildTestApp(kind);
      admin = await t.login('boss', { admin: true });
      canaryPath = path.join(t.config.dataDir, 'canary.zip');
      writeFileSync(canaryPath, CANARY);
    });
    afterEach(async () => {
      await t.close();
    });

    it('takes a real ZIP sent with a misleading type, and always serves it as a ZIP attachment', async () => {
      for (const [name, type] of [
        ['typed-html.zip', 'text/html'],
        ['typed-svg.zip', 'image/svg+xml'],
        ['typed-js.zip', 'application/javascript'],
      ] as const) {
        expect((await upload(admin, name, ZIP, type)).status, name).toBe(200);
      }
      // A ZIP whose own bytes also read as HTML (a polyglot), named like a page but typed as a ZIP.
      const polyglot = Buffer.concat([
        ZIP.subarray(0, 30),
        Buffer.from('<html><script>alert(1)</script>'),
        ZIP.subarray(30),
      ]);
      expect((await upload(admin, 'page.html', polyglot, 'application/zip')).status).toBe(200);
      for (const name of ['typed-html.zip', 'typed-svg.zip', 'typed-js.zip', 'page.html']) {
        const res = await admin.get(`/api/ctf/download/${encodeURIComponent(name)}`);
        expect(res.status, name).toBe(200);
        expect(res.headers['content-type'], name).toBe('application/zip');
        expect(res.headers['content-disposition'], name).toBe(`attachment; filename="${name}"`);
        expect(res.headers['x-content-type-options'], name).toBe('nosniff');
        expect(String(res.headers['content-security-policy']), name).toContain("frame-ancestors 'none'");
      }
      expectCanaryIntact();
    });

    it('refuses content that is not a ZIP whatever its name and type say, keeping nothing', async () => {
      const before = await snapshotDatabase(t.ctx);
      for (const [name, content, type] of [
        ['page.zip', Buffer.from('<html><script>alert(1)</script></html>'), 'application/zip'],
        ['program.zip', Buffer.from('MZ\x90\x00\x03\x00\x00\x00'), 'application/x-zip-compressed'],
        ['elf.zip', Buffer.from('\x7fELF\x02\x01\x01\x00'), 'application/zip'],
        ['gzip.zip', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0]), 'application/zip'],
        ['truncated.zip', Buffer.from('PK\x03'), 'application/zip'],
        ['spanned.zip', Buffer.from('PK\x07\x08rest'), 'application/zip'],
        ['empty-typed', Buffer.alloc(0), 'application/zip'],
        ['empty.zip', Buffer.alloc(0), 'text/plain'],
        ['image.png', ZIP, 'image/png'],
        ['archive', ZIP, 'application/octet-stream'],
      ] as const) {
        const res = await upload(admin, name, content, type);
        expect(res.status, name).toBe(400);
        expect(res.body.acknowledge, name).toBe(false);
      }
      expect(inside()).toEqual([]);
      expect(changedTables(before, await snapshotDatabase(t.ctx))).toEqual([]);
      expectCanaryIntact();
    });

    it('refuses names that are paths, absolute, NUL-bearing or look-alikes of dots and slashes', async () => {
      const before = await snapshotDatabase(t.ctx);
      const names = [
        '../canary.zip',
        '../../canary.zip',
        'uploads/../../canary.zip',
        '..',
        '.',
        '/tmp/abs.zip',
        '/etc/passwd',
        'C:\\Windows\\abs.zip',
        '\\\\server\\share\\abs.zip',
        'file:///etc/abs.zip',
        'a\u0000.zip',
        'canary.zip\u0000.png',
        '\u0000',
        '%2e%2e%2fcanary.zip',
        '..%2fcanary.zip',
        '..%5ccanary.zip',
        '\uff0e\uff0e\uff0fcanary.zip',
        '..\u2215canary.zip',
        '..\u2044canary.zip',
        '\u2024\u2024/canary.zip',
        'file\u202egpj.zip',
        '\ufb01le.zip',
        '\uff46ile.zip',
        'zero\u200bwidth.zip',
        'new\nline.zip',
        'tab\t.zip',
        'quote".zip',
        ' .zip',
        '.zip',
        `${'a'.repeat(300)}.zip`,
      ];
      for (const name of names) {
        const res = await upload(admin, name);
        expect(res.status, JSON.stringify(name)).toBe(400);
        expect(res.body.acknowledge, JSON.stringify(name)).toBe(false);
      }
      expect(inside()).toEqual([]);
      expect(changedTables(before, await snapshotDatabase(t.ctx))).toEqual([]);
      expectCanaryIntact();
    });

    it('refuses encoded and injected names in the multipart header itself', async () => {
      const dispositions = [
        `Content-Disposition: form-data; name="file"; filename*=UTF-8''..%2F..%2Fcanary.zip`,
        `Content-Disposition: form-data; name="file"; filename*=UTF-8''%2Ftmp%2Fabs.zip`,
        `Content-Disposition: form-data; name="file"; filename="safe.zip"; filename*=UTF-8''..%2Fcanary.zip`,
        `Content-Disposition: form-data; name="file"; filename="../canary.zip"; filename="safe.zip"`,
        `Content-Disposition: form-data; name="file"; filename="..\\\\canary.zip"`,
        `Content-Disposition: form-data; name="file"; filename=../canary.zip`,
        `Content-Disposition: form-data; name="file"; filename="a.zip\r\nX-Injected: 1"`,
        `Content-Disposition: form-data; name="file"; filename=""`,
        `Content-Disposition: form-data; name="file"`,
      ];
      for (const disposition of dispositions) {
        const { payload, headers } = rawMultipart(disposition, ZIP);
        const res = await admin.post('/api/admin/ctf/upload', payload, headers);
        expect(res.status, disposition).toBeLessThan(500);
        if (res.status === 200) {
          // Only a name that is safe as it stands may be kept (as the parser read it), inside the folder.
          const stored = inside();
          expect(stored, disposition).toHaveLength(1);
          expect(adminApi.fileNameProblem(stored[0]!), disposition).toBeNull();
          expect(res.body.message, disposition).toContain(`'${stored[0]}'`);
          expect((await admin.post('/api/admin/ctf/delete_file', { filename: stored[0] })).status).toBe(200);
        }
      }
      expect(inside()).toEqual([]);
      expectCanaryIntact();
    });

    it('never deletes outside the folder, and deletes only stored names', async () => {
      expect((await upload(admin, 'kept.zip')).status).toBe(200);
      for (const filename of [
        '../canary.zip',
        canaryPath,
        '..',
        '.',
        'uploads/../canary.zip',
        '%2e%2e%2fcanary.zip',
        'KEPT.zip',
        'kept.zip ',
        'kept',
      ]) {
        const res = await admin.post('/api/admin/ctf/delete_file', { filename });
        expect([400, 404], filename).toContain(res.status);
      }
      expect(inside()).toEqual(['kept.zip']);
      expectCanaryIntact();
    });

    it('two uploads of one name at once: one stored, one refused, no half-written leftovers', async () => {
      const a = makeZip([{ name: 'a.txt', content: 'first' }]);
      const b = makeZip([{ name: 'b.txt', content: 'second' }]);
      const answers = await releasedTogether([
        () => upload(admin, 'race.zip', a),
        () => upload(admin, 'RACE.zip', b),
        () => upload(admin, 'race.zip', b),
      ]);
      expect(answers.map((x) => x.status).sort()).toEqual([200, 409, 409]);
      const stored = inside();
      expect(stored).toHaveLength(1);
      const rows = await t.ctx.database.db.selectFrom('files').select(['name', 'size']).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.name).toBe(stored[0]);
      expect(readFileSync(path.join(t.config.uploadDir, stored[0]!)).length).toBe(rows[0]!.size);
      expectCanaryIntact();
    });

    it('never serves anything outside the folder, for download names encoded every way (generated)', async () => {
      expect((await upload(admin, 'task.zip')).status).toBe(200);
      await createChallenge(t.ctx, {
        name: 'Files',
        description: '',
        category: 'General',
        difficulty: 'Easy',
        written_by: 'x',
        flag: 'f',
        files: ['task.zip'],
      });
      await setSiteActive(t.ctx, true);
      const player = await t.login('player');
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const piece = fc.constantFrom(
        '..',
        '.',
        '/',
        '\\',
        '%2e',
        '%2E',
        '%2f',
        '%2F',
        '%5c',
        '%5C',
        '%252e',
        '%252f',
        '%25',
        '%00',
        '%2500',
        '%c0%ae',
        '%c0%af',
        '%e2%88%95',
        '%ef%bc%8e',
        '%ef%bc%8f',
        '%u002e',
        '..;',
        ';',
        '?',
        '#',
        '%3f',
        'canary.zip',
        'task.zip',
        'uploads',
        'ctf.sqlite',
        'etc',
        'passwd',
        'session-secret',
        'x',
      );
      const seen = new Set<number>();
      await fc.assert(
        fc.asyncProperty(
          fc.array(piece, { minLength: 1, maxLength: 8 }),
          fc.boolean(),
          async (pieces, asAdmin) => {
            const name = pieces.join('');
            const { status, body } = await rawGet(
              port,
              `/api/ctf/download/${name}`,
              (asAdmin ? admin : player).cookie!,
            );
            seen.add(status);
            expect(status, name).toBeLessThan(500);
            expect(body, name).not.toContain(CANARY);
            expect(body, name).not.toContain('SQLite format');
            expect(body, name).not.toContain('root:');
            if (status === 200) expect(body, name).toBe(ZIP.toString('latin1'));
          },
        ),
        { numRuns: 300 },
      );
      expect(seen.has(404)).toBe(true);
      expectCanaryIntact();
    });
  });
}
