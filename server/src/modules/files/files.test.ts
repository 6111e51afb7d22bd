import { MESSAGES } from '@ctf/contract';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ORIGIN, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import type { Topic } from '../../lib/invalidation.js';
import { createChallenge, toggleChallengeStatus } from '../challenges/challenges.service.js';
import { setSiteActive } from '../site/site.service.js';
import { parseRange } from './files.routes.js';
import { makeZip } from '../../lib/zip.js';

/** A real one-entry ZIP archive (stored, not compressed). */
function zipWith(entryName: string, content: string): Buffer {
  return makeZip([{ name: entryName, content }]);
}

/** An empty archive: only the end-of-central-directory record. */
const EMPTY_ZIP = (() => {
  const b = Buffer.alloc(22);
  b.writeUInt32LE(0x06054b50, 0);
  return b;
})();

function multipart(
  filename: string,
  content: Buffer,
  type = 'application/zip',
  field = 'file',
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----ctfTestBoundary7MA4YWxkTrZu0gW';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, content, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

function upload(client: TestClient, filename: string, content: Buffer, type?: string, field?: string) {
  const { payload, headers } = multipart(filename, content, type, field);
  return client.post('/api/admin/ctf/upload', payload, headers);
}

/** Every entry of the upload folder (stored files and any temporary leftovers). */
function folder(t: TestApp): string[] {
  return existsSync(t.config.uploadDir) ? readdirSync(t.config.uploadDir).sort() : [];
}

const CHALLENGE = {
  name: 'Zipped',
  description: '<p>Open it</p>',
  category: 'Forensics' as const,
  difficulty: 'Easy' as const,
  written_by: 'club',
  flag: 'flag{zip}',
  files: [] as string[],
};

describe('parseRange', () => {
  it('reads single byte ranges and refuses what it cannot satisfy', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
    expect(parseRange('bytes=9-2', 100)).toBeNull();
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`files on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;
    let published: Topic[];

    beforeEach(async () => {
      t = await buildTestApp(kind);
      admin = await t.login('boss', { admin: true });
      published = [];
      t.ctx.bus.subscribe((topic) => published.push(topic));
    });
    afterEach(async () => {
      await t.close();
    });

    it('stores a real ZIP, lists it and publishes files', async () => {
      const zip = zipWith('readme.txt', 'hello');
      const res = await upload(admin, 'task (1).zip', zip);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ acknowledge: true, message: "File 'task (1).zip' uploaded successfully." });
      expect(readFileSync(path.join(t.config.uploadDir, 'task (1).zip'))).toEqual(zip);
      expect(folder(t)).toEqual(['task (1).zip']);
      expect(published).toContain('files');
      const list = await admin.get('/api/admin/ctf/get_uploads');
      expect(list.status).toBe(200);
      expect(list.body).toEqual(['task (1).zip']);
    });

    it('accepts an empty archive and a ZIP named without .zip but typed as one', async () => {
      expect((await upload(admin, 'empty.zip', EMPTY_ZIP)).status).toBe(200);
      const res = await upload(admin, 'bundle', zipWith('a', 'b'), 'application/x-zip-compressed');
      expect(res.status).toBe(200);
      expect((await admin.get('/api/admin/ctf/get_uploads')).body).toEqual(['bundle', 'empty.zip']);
    });

    it('refuses a text file renamed to .zip and leaves nothing behind', async () => {
      const res = await upload(admin, 'notes.zip', Buffer.from('just some text, not an archive'));
      expect(res.status).toBe(400);
      expect(res.body.acknowledge).toBe(false);
      expect(res.body.message).toContain('not a ZIP archive');
      expect(folder(t)).toEqual([]);
      expect((await admin.get('/api/admin/ctf/get_uploads')).body).toEqual([]);
    });

    it('refuses a file that is not a ZIP by name or type before reading it', async () => {
      const res = await upload(admin, 'notes.txt', zipWith('a', 'b'), 'text/plain');
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('Only ZIP files are allowed');
      expect(folder(t)).toEqual([]);
    });

    it('refuses a 0-byte file', async () => {
      const res = await upload(admin, 'nothing.zip', Buffer.alloc(0));
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('empty');
      expect(folder(t)).toEqual([]);
    });

    it('refuses names with path parts, leading dots, control or odd characters, or too long', async () => {
      const zip = zipWith('a', 'b');
      for (const name of [
        '../evil.zip',
        '..\\evil.zip',
        'dir/evil.zip',
        '/etc/evil.zip',
        'C:\\fakepath\\evil.zip',
        '.hidden.zip',
        '..zip',
        'tab\there.zip',
        'semi;colon.zip',
        'star*.zip',
        'pipe|.zip',
        'ünïcode.zip',
        ' padded.zip',
        `${'a'.repeat(197)}.zip`,
      ]) {
        const res = await upload(admin, name, zip);
        expect(res.status, name).toBe(400);
        expect(res.body.acknowledge, name).toBe(false);
      }
      expect(folder(t)).toEqual([]);
      expect(existsSync(path.join(t.config.dataDir, 'evil.zip'))).toBe(false);
    });

    it('answers 409 for a name already stored, whatever its case', async () => {
      expect((await upload(admin, 'dup.zip', zipWith('a', '1'))).status).toBe(200);
      const again = await upload(admin, 'dup.zip', zipWith('a', '2'));
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ acknowledge: false });
      expect(again.body.message).toContain("A file named 'dup.zip' already exists");
      expect((await upload(admin, 'DUP.zip', zipWith('a', '3'))).status).toBe(409);
      expect(readFileSync(path.join(t.config.uploadDir, 'dup.zip'))).toEqual(zipWith('a', '1'));
      expect(folder(t)).toEqual(['dup.zip']);
    });

    it('refuses requests that are not one file in the field "file"', async () => {
      const notMultipart = await admin.post('/api/admin/ctf/upload', { file: 'x' });
      expect(notMultipart.status).toBe(400);
      expect(notMultipart.body.acknowledge).toBe(false);
      const wrongField = await upload(admin, 'a.zip', zipWith('a', 'b'), 'application/zip', 'attachment');
      expect(wrongField.status).toBe(400);
      expect(wrongField.body.message).toContain("'file'");
      const boundary = 'xyz';
      const onlyField = await admin.post(
        '/api/admin/ctf/upload',
        `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}--\r\n`,
        { 'content-type': `multipart/form-data; boundary=${boundary}` },
      );
      expect(onlyField.status).toBe(400);
      expect(folder(t)).toEqual([]);
    });

    it('refuses uploads from visitors and participants before reading them', async () => {
      const player = await t.login('player');
      expect((await upload(t.visitor(), 'a.zip', zipWith('a', 'b'))).status).toBe(401);
      expect((await upload(player, 'a.zip', zipWith('a', 'b'))).status).toBe(403);
      expect(folder(t)).toEqual([]);
    });

    it('deletes a file, detaches it from challenges and publishes files and challenges', async () => {
      await upload(admin, 'gone.zip', zipWith('a', 'b'));
      await upload(admin, 'kept.zip', zipWith('c', 'd'));
      await createChallenge(t.ctx, { ...CHALLENGE, files: ['gone.zip', 'kept.zip'] });
      published.length = 0;
      const res = await admin.post('/api/admin/ctf/delete_file', { filename: 'gone.zip' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ acknowledge: true, message: "File 'gone.zip' deleted." });
      expect(published).toEqual(expect.arrayContaining(['files', 'challenges']));
      expect(folder(t)).toEqual(['kept.zip']);
      const challenges = await admin.get('/api/admin/ctf/fetch_challenges');
      expect(challenges.body[0].hlinks).toEqual(['kept.zip']);
      const missing = await admin.post('/api/admin/ctf/delete_file', { filename: 'gone.zip' });
      expect(missing.status).toBe(404);
      expect(missing.body.acknowledge).toBe(false);
      expect((await admin.post('/api/admin/ctf/delete_file', {})).status).toBe(400);
    });

    describe('downloads', () => {
      let player: TestClient;
      const zip = zipWith('flag.txt', 'look closer');

      beforeEach(async () => {
        player = await t.login('player');
        await upload(admin, 'task.zip', zip);
        await upload(admin, 'private.zip', zipWith('secret', 'admins only'));
        await createChallenge(t.ctx, { ...CHALLENGE, files: ['task.zip'] });
        await setSiteActive(t.ctx, true);
      });

      it('lets a participant fetch a file of an active challenge as an attachment', async () => {
        const res = await player.get('/api/ctf/download/task.zip');
        expect(res.status).toBe(200);
        expect(Buffer.from(res.text, 'latin1').length).toBe(zip.length);
        expect(res.headers['content-disposition']).toBe('attachment; filename="task.zip"');
        expect(res.headers['content-type']).toBe('application/zip');
        expect(res.headers['content-length']).toBe(String(zip.length));
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        const raw = await t.app.inject({
          method: 'GET',
          url: '/api/ctf/download/task.zip',
          headers: { cookie: player.cookie! },
        });
        expect(raw.rawPayload).toEqual(zip);
      });

      it('serves byte ranges', async () => {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/ctf/download/task.zip',
          headers: { cookie: player.cookie!, range: 'bytes=0-3' },
        });
        expect(res.statusCode).toBe(206);
        expect(res.headers['content-range']).toBe(`bytes 0-3/${zip.length}`);
        expect(res.rawPayload).toEqual(zip.subarray(0, 4));
        const beyond = await t.app.inject({
          method: 'GET',
          url: '/api/ctf/download/task.zip',
          headers: { cookie: player.cookie!, range: `bytes=${zip.length}-` },
        });
        expect(beyond.statusCode).toBe(416);
      });

      it('hides files of no active challenge from participants, not from admins', async () => {
        expect((await player.get('/api/ctf/download/private.zip')).status).toBe(404);
        expect((await admin.get('/api/ctf/download/private.zip')).status).toBe(200);
        const [challenge] = (await admin.get('/api/admin/ctf/fetch_challenges')).body;
        await toggleChallengeStatus(t.ctx, Number(challenge._id));
        const disabled = await player.get('/api/ctf/download/task.zip');
        expect(disabled.status).toBe(404);
        expect(disabled.body).toEqual({ message: 'File not found', code: 'not_found' });
        expect((await admin.get('/api/ctf/download/task.zip')).status).toBe(200);
      });

      it('tells participants the site is inactive, and refuses visitors', async () => {
        await setSiteActive(t.ctx, false);
        const res = await player.get('/api/ctf/download/task.zip');
        expect(res.status).toBe(403);
        expect(res.body.message).toBe(MESSAGES.siteInactive);
        expect((await admin.get('/api/ctf/download/task.zip')).status).toBe(200);
        expect((await t.visitor().get('/api/ctf/download/task.zip')).status).toBe(401);
      });

      it('answers 404 for unknown names and names that differ from the stored one', async () => {
        for (const name of ['nope.zip', 'TASK.zip', 'task.zip%20', 'task', '']) {
          expect((await admin.get(`/api/ctf/download/${name}`)).status, name).toBe(404);
        }
      });

      it('never reads outside the upload folder, however the name is encoded', async () => {
        // A file beside the upload folder that a traversal would reach, and the database itself.
        writeFileSync(path.join(t.config.dataDir, 'outside.zip'), 'OUTSIDE-SECRET');
        const attempts = [
          '../outside.zip',
          '..%2foutside.zip',
          '%2e%2e%2foutside.zip',
          '%2E%2E%2Foutside.zip',
          '%252e%252e%252foutside.zip',
          '..%252foutside.zip',
          '..%5coutside.zip',
          '..\\outside.zip',
          '%2e%2e%5coutside.zip',
          '....//outside.zip',
          '%2fetc%2fpasswd',
          '..%2f..%2f..%2f..%2fetc%2fpasswd',
          '..%2fctf.sqlite',
          '.%2ftask.zip',
          'task.zip%00.txt',
          '%c0%ae%c0%ae%2foutside.zip',
        ];
        // Over a real socket, so no client normalises the path before the server sees it.
        await t.app.listen({ port: 0, host: '127.0.0.1' });
        const port = (t.app.server.address() as AddressInfo).port;
        for (const attempt of attempts) {
          const { status, body } = await rawGet(port, `/api/ctf/download/${attempt}`, admin.cookie!);
          // 404 from the download handler, or 400 where the URL itself cannot be decoded.
          expect([400, 404], attempt).toContain(status);
          expect(body, attempt).not.toContain('OUTSIDE-SECRET');
          expect(body, attempt).not.toContain('SQLite format');
          expect(body, attempt).not.toContain('root:');
        }
      });

      it('keeps to the upload folder even if the files table held a path', async () => {
        writeFileSync(path.join(t.config.dataDir, 'outside.zip'), 'OUTSIDE-SECRET');
        await t.ctx.database.db
          .insertInto('files')
          .values({ name: '../outside.zip', size: 14, created_at: new Date().toISOString() })
          .execute();
        await t.app.listen({ port: 0, host: '127.0.0.1' });
        const port = (t.app.server.address() as AddressInfo).port;
        const res = await rawGet(port, '/api/ctf/download/..%2foutside.zip', admin.cookie!);
        expect(res.status).toBe(404);
        expect(res.body).not.toContain('OUTSIDE-SECRET');
      });
    });
  });
}

describe('upload size limit', () => {
  let t: TestApp;
  let admin: TestClient;
  beforeEach(async () => {
    t = await buildTestApp('sqlite', { UPLOAD_MAX_BYTES: '1024' });
    admin = await t.login('boss', { admin: true });
  });
  afterEach(async () => {
    await t.close();
  });

  it('answers 413 for a file over the limit, keeping nothing', async () => {
    const big = zipWith('big.txt', 'x'.repeat(4096));
    const res = await upload(admin, 'big.zip', big);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ acknowledge: false, code: 'too_large' });
    expect(res.body.message).toContain('1 KB');
    expect(folder(t)).toEqual([]);
    expect((await admin.get('/api/admin/ctf/get_uploads')).body).toEqual([]);
  });

  it('answers 413 at once for a body announced far over the limit', async () => {
    const res = await upload(admin, 'huge.zip', zipWith('huge.txt', 'x'.repeat(200_000)));
    expect(res.status).toBe(413);
    expect(res.body.acknowledge).toBe(false);
    expect(folder(t)).toEqual([]);
  });

  it('accepts a file right at the limit', async () => {
    const base = zipWith('f', '');
    const exact = zipWith('f', 'y'.repeat(1024 - base.length));
    expect(exact.length).toBe(1024);
    expect((await upload(admin, 'exact.zip', exact)).status).toBe(200);
  });
});

/** A GET whose path goes to the server byte for byte. */
function rawGet(port: number, rawPath: string, cookie: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: 'GET', path: rawPath, headers: { cookie, origin: TEST_ORIGIN } },
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
