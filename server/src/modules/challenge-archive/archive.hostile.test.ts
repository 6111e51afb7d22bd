import { CHALLENGE_ARCHIVE_LIMITS, CHALLENGE_DESCRIPTION_MAX_LENGTH } from '@ctf/contract';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { makeZip, writeZip } from '../../lib/zip.js';
import { postImport } from '../../../test/archive-upload.js';

/**
 * Hostile archives (issue 17): each is refused with a clear message naming what is wrong, and
 * nothing of it is imported: no challenge, no file row, nothing in the upload folder or beside it.
 */

const YML = `name: Hostile
author: x
category: General
value: 100
flags:
  - flag{x}
`;
const yml = (extra = '') => Buffer.from(YML + extra);

for (const kind of testDatabaseKinds()) {
  describe(`hostile challenge archives on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;

    beforeAll(async () => {
      t = await buildTestApp(kind);
      admin = await t.login('boss', { admin: true });
    });
    afterAll(async () => {
      await t.close();
    });

    /** Imports, expects a 400 whose one error matches, and checks nothing was left behind. */
    async function refused(zip: Buffer, message: RegExp, file?: string, filename?: string) {
      for (const dryRun of [true, false]) {
        const res = await postImport(admin, zip, dryRun, filename);
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body).toMatchObject({ acknowledge: false, created: [], updated: [] });
        expect(res.body.errors.map((e: { message: string }) => e.message).join('\n')).toMatch(message);
        if (file !== undefined) expect(res.body.errors[0].file).toBe(file);
      }
      const db = t.ctx.database.db;
      expect(await db.selectFrom('challenges').select('id').execute()).toEqual([]);
      expect(await db.selectFrom('files').select('id').execute()).toEqual([]);
      const dir = t.config.uploadDir;
      expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
      expect(existsSync(path.join(dir, '..', 'evil.txt'))).toBe(false);
    }

    it('refuses path traversal in entry names', async () => {
      await refused(
        writeZip([
          { name: 'ok/challenge.yml', data: yml() },
          { name: 'ok/../../evil.txt', data: Buffer.from('x') },
        ]),
        /'ok\/\.\.\/\.\.\/evil\.txt' points outside the archive \(path traversal\)/,
        'ok/../../evil.txt',
      );
      await refused(writeZip([{ name: '/etc/challenge.yml', data: yml() }]), /path traversal/);
      await refused(writeZip([{ name: 'a\\..\\..\\challenge.yml', data: yml() }]), /path traversal/);
    });

    it('refuses path traversal in files:', async () => {
      await refused(
        makeZip([
          { name: 'one/challenge.yml', content: yml('files:\n  - ../two/secret.txt\n') },
          { name: 'two/challenge.yml', content: yml().toString().replace('Hostile', 'Two') },
          { name: 'two/secret.txt', content: 'secret' },
        ]),
        /files\.0 '\.\.\/two\/secret\.txt' leaves the challenge folder \(path traversal\)/,
        'one/challenge.yml',
      );
      await refused(
        makeZip([{ name: 'one/challenge.yml', content: yml('files: [/etc/passwd]\n') }]),
        /leaves the challenge folder/,
      );
    });

    it('refuses symlink entries', async () => {
      await refused(
        writeZip([
          { name: 'ok/challenge.yml', data: yml('files: [link]\n') },
          { name: 'ok/link', data: Buffer.from('/etc/passwd'), mode: 0o120777 },
        ]),
        /'ok\/link' is a symbolic link: refused/,
        'ok/link',
      );
    });

    it('refuses ZIP bombs: declared sizes, sizes found while inflating, and entry counts', async () => {
      const limitMb = CHALLENGE_ARCHIVE_LIMITS.maxTotalBytes / (1024 * 1024);
      // Declares more than the limit.
      const zeros = deflateRawSync(Buffer.alloc(1024 * 1024));
      await refused(
        writeZip([
          { name: 'b/challenge.yml', data: yml() },
          { name: 'b/big.bin', data: zeros, method: 8, size: CHALLENGE_ARCHIVE_LIMITS.maxTotalBytes + 1 },
        ]),
        new RegExp(`unpacks to more than ${limitMb} MB`),
      );
      // Declares 100 bytes and inflates to 8 MB: stopped while inflating.
      const bomb = Buffer.alloc(8 * 1024 * 1024);
      await refused(
        writeZip([
          { name: 'b/challenge.yml', data: yml() },
          { name: 'b/bomb.bin', data: deflateRawSync(bomb), method: 8, size: 100, crc: crc32(bomb) >>> 0 },
        ]),
        /inflates to a size other than the one it declares: refused \(a ZIP bomb\?\)/,
      );
      // Too many entries.
      const many = Array.from({ length: CHALLENGE_ARCHIVE_LIMITS.maxEntries + 1 }, (_, i) => ({
        name: `b/f${i}.txt`,
        content: 'x',
      }));
      await refused(
        makeZip([{ name: 'b/challenge.yml', content: yml() }, ...many]),
        new RegExp(`more than ${CHALLENGE_ARCHIVE_LIMITS.maxEntries}`),
      );
    });

    it('refuses YAML alias bombs', async () => {
      const lol = [
        'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
        'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
        'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
        'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
        'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
        'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
        'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
        'h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]',
      ].join('\n');
      await refused(
        makeZip([{ name: 'lol/challenge.yml', content: `${YML}${lol}\n` }]),
        /Excessive alias count.*at most 100 aliases/,
        'lol/challenge.yml',
      );
    });

    it('refuses a 50 MB description, and one past the description limit with its line', async () => {
      const huge = `${YML}description: "${'A'.repeat(50 * 1024 * 1024)}"\n`;
      await refused(
        makeZip([{ name: 'big/challenge.yml', content: huge }]),
        /challenge\.yml is larger than 256 KB: refused/,
        'big/challenge.yml',
      );
      const long = `${YML}description: "${'A'.repeat(CHALLENGE_DESCRIPTION_MAX_LENGTH + 1)}"\n`;
      const res = await postImport(admin, makeZip([{ name: 'big/challenge.yml', content: long }]), true);
      expect(res.body.errors).toEqual([
        {
          file: 'big/challenge.yml',
          line: 7,
          message: `The description is ${CHALLENGE_DESCRIPTION_MAX_LENGTH + 1} characters long; at most ${CHALLENGE_DESCRIPTION_MAX_LENGTH} are accepted.`,
        },
      ]);
    });

    it('refuses a file that is not a ZIP, and an archive without challenge.yml', async () => {
      await refused(
        Buffer.from('name: Hostile\n'),
        /The file is not a ZIP archive/,
        'challenge.yml',
        'challenge.yml',
      );
      await refused(
        makeZip([{ name: 'task/readme.txt', content: 'no yml here' }]),
        /The archive holds no challenge\.yml/,
      );
      await refused(
        makeZip([
          { name: 'task/challenge.yml', content: yml() },
          { name: 'orphan/readme.txt', content: 'x' },
        ]),
        /The folder 'orphan' has no challenge\.yml/,
        'orphan/readme.txt',
      );
    });
  });
}
