import { CHALLENGE_ARCHIVE_LIMITS, MARKDOWN_MAX_NESTING } from '@ctf/contract';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postImport } from '../../test/archive-upload.js';
import { buildTestApp, type TestApp, type TestClient } from '../../test/build-test-app.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { whileHealthChecked } from '../../test/event-loop.js';
import { makeZip, writeZip } from '../lib/zip.js';

/**
 * Issue 29, reproductions 1: one small input must not hold the server. Markdown and YAML are
 * refused past their budgets before anything parses them, so each answer comes in well under a
 * second while health checks sent meanwhile answer in under 100 ms; a dry run of an archive with
 * two 95 MB entries stops at the per-entry limit instead of holding both.
 */

const FAST_MS = 1_000;
const HEALTH_MS = 100;

const YML = 'name: Budget\nauthor: x\ncategory: General\nvalue: 100\nflags:\n  - flag{x}\n';

/** A deflated run of `size` zero bytes, made in 1 MB steps so the test never holds it whole. */
async function deflatedZeros(size: number): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const mb = Buffer.alloc(1024 * 1024);
  for (let left = size; left > 0; left -= mb.length) {
    if (!deflate.write(left >= mb.length ? mb : mb.subarray(0, left)))
      await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/** CRC-32 of `size` zero bytes, in 1 MB steps. */
function crcOfZeros(size: number): number {
  const mb = Buffer.alloc(1024 * 1024);
  let crc = 0;
  for (let left = size; left > 0; left -= mb.length)
    crc = crc32(left >= mb.length ? mb : mb.subarray(0, left), crc);
  return crc >>> 0;
}

for (const kind of testDatabaseKinds()) {
  describe(`input budgets on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;
    beforeAll(async () => {
      t = await buildTestApp(kind);
      admin = await t.login('boss', { admin: true });
    });
    afterAll(async () => {
      await t.close();
    });

    const errorsOf = (body: { errors: { file: string; message: string }[] }) =>
      body.errors.map((e) => `${e.file}: ${e.message}`).join('\n');

    it('refuses deeply nested Markdown in an announcement at once: 400, never a held loop or a 500', async () => {
      for (const body of ['>'.repeat(1200) + 'x\nx\nx\n', '>'.repeat(5000) + 'x']) {
        const { result, ms, worstHealthMs } = await whileHealthChecked(t.app, () =>
          admin.post('/api/admin/announcements/create', { title: 'Deep', body }),
        );
        expect(result.status, result.text).toBe(400);
        expect(result.body.message).toContain(
          `Body nests quotes or lists more than ${MARKDOWN_MAX_NESTING} levels deep (line 1)`,
        );
        expect(ms).toBeLessThan(FAST_MS);
        expect(worstHealthMs).toBeLessThan(HEALTH_MS);
      }
      // Nesting within the budget still renders.
      const fine = await admin.post('/api/admin/announcements/create', {
        title: 'Fine',
        body: '> > quoted\n\n- a\n  - b',
      });
      expect(fine.status, fine.text).toBe(200);
    });

    it('refuses deeply nested Markdown in the settings texts and in a hint, naming the field', async () => {
      const deep = '>'.repeat(1200) + 'x\nx\nx\n';
      const { result, worstHealthMs } = await whileHealthChecked(t.app, () =>
        admin.post('/api/admin/settings', { aboutMd: deep }),
      );
      expect(result.status, result.text).toBe(400);
      expect(result.body.message).toMatch(/aboutMd.*nests quotes or lists more than/);
      expect(worstHealthMs).toBeLessThan(HEALTH_MS);
      const list = Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}- item`).join('\n');
      const faq = await admin.post('/api/admin/settings', { faqMd: list });
      expect(faq.status, faq.text).toBe(400);
      expect(faq.body.message).toMatch(/faqMd.*nests quotes or lists more than .* \(line \d+\)/);
    });

    it('refuses a 223-byte challenge.yml whose description nests 1,200 quotes, naming the file', async () => {
      const zip = makeZip([
        { name: 'deep/challenge.yml', content: `${YML}description: "${'>'.repeat(1200)}x\\nx\\nx"\n` },
      ]);
      const { result, ms, worstHealthMs } = await whileHealthChecked(t.app, () =>
        postImport(admin, zip, true),
      );
      expect(result.status, result.text).toBe(400);
      expect(errorsOf(result.body)).toContain(
        `deep/challenge.yml: The description nests quotes or lists more than ${MARKDOWN_MAX_NESTING} levels deep (line 1): refused.`,
      );
      expect(ms).toBeLessThan(FAST_MS);
      expect(worstHealthMs).toBeLessThan(HEALTH_MS);
    });

    it('refuses a hint nested past the Markdown budget, naming the file and the hint', async () => {
      const zip = makeZip([
        { name: 'hint/challenge.yml', content: `${YML}hints:\n  - "${'>'.repeat(1200)}x\\nx"\n` },
      ]);
      const { result, worstHealthMs } = await whileHealthChecked(t.app, () => postImport(admin, zip, true));
      expect(result.status, result.text).toBe(400);
      expect(errorsOf(result.body)).toContain(
        `hint/challenge.yml: hints.0 nests quotes or lists more than ${MARKDOWN_MAX_NESTING} levels deep (line 1): refused.`,
      );
      expect(worstHealthMs).toBeLessThan(HEALTH_MS);
    });

    it('refuses a 66 KB challenge.yml of 32,000 keys before parsing it, naming the file', async () => {
      const keys = `${YML}extra_keys: {${Array.from({ length: 32_000 }, () => 'a').join(',')}}\n`;
      expect(keys.length).toBeLessThan(70 * 1024);
      const zip = makeZip([{ name: 'keys/challenge.yml', content: keys }]);
      const { result, ms, worstHealthMs } = await whileHealthChecked(t.app, () =>
        postImport(admin, zip, true),
      );
      expect(result.status, result.text).toBe(400);
      expect(errorsOf(result.body)).toContain(
        `keys/challenge.yml: challenge.yml holds more than ${CHALLENGE_ARCHIVE_LIMITS.maxYamlKeys} keys: refused.`,
      );
      expect(ms).toBeLessThan(FAST_MS);
      expect(worstHealthMs).toBeLessThan(HEALTH_MS);
      // Distinct block keys too (each one an unknown key the importer would have looked up).
      const block = `${YML}${Array.from({ length: 8_000 }, (_, i) => `k${i}: 1`).join('\n')}\n`;
      const res = await postImport(admin, makeZip([{ name: 'keys/challenge.yml', content: block }]), true);
      expect(errorsOf(res.body)).toMatch(
        /keys\/challenge\.yml: challenge\.yml holds more than .* keys: refused\./,
      );
    });

    it('refuses five challenge.yml files nested 120,000 deep before parsing any', async () => {
      const nested = [
        `${YML}extra: ${'['.repeat(120_000)}\n`,
        `${YML}extra: ${'{a: '.repeat(30_000)}\n`,
        `${YML}extra:\n${Array.from({ length: 200 }, (_, i) => `${' '.repeat(i + 1)}- `).join('\n')}x\n`,
        `${YML}extra:\n${'- '.repeat(60_000)}x\n`,
        `${YML}extra: ${'['.repeat(60_000)}${']'.repeat(60_000)}\n`,
      ];
      const zip = makeZip(nested.map((content, i) => ({ name: `n${i}/challenge.yml`, content })));
      const { result, ms, worstHealthMs } = await whileHealthChecked(t.app, () =>
        postImport(admin, zip, true),
      );
      expect(result.status, result.text).toBe(400);
      for (let i = 0; i < nested.length; i += 1)
        expect(errorsOf(result.body)).toContain(
          `n${i}/challenge.yml: challenge.yml nests more than ${CHALLENGE_ARCHIVE_LIMITS.maxYamlNesting} levels deep: refused.`,
        );
      expect(ms).toBeLessThan(FAST_MS);
      expect(worstHealthMs).toBeLessThan(HEALTH_MS);
    });

    it('still finds a repeated key, with its line', async () => {
      const zip = makeZip([{ name: 'dup/challenge.yml', content: `${YML}name: Again\n` }]);
      const res = await postImport(admin, zip, true);
      expect(res.body.errors).toEqual([
        { file: 'dup/challenge.yml', line: 7, message: 'YAML: Map keys must be unique' },
      ]);
    });

    it('a dry run of two 95 MB entries stops at the per-entry limit, holding neither', async () => {
      const size = 95 * 1024 * 1024;
      const data = await deflatedZeros(size);
      const crc = crcOfZeros(size);
      const zip = writeZip([
        {
          name: 'big/challenge.yml',
          method: 8,
          data: deflateRawSync(YML),
          size: YML.length,
          crc: crc32(YML) >>> 0,
        },
        { name: 'big/a.bin', method: 8, data, size, crc },
        { name: 'big/b.bin', method: 8, data, size, crc },
      ]);
      expect(zip.length).toBeLessThan(400 * 1024);
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 2);
      try {
        const { result, ms, worstHealthMs } = await whileHealthChecked(t.app, () =>
          postImport(admin, zip, true),
        );
        expect(result.status, result.text).toBe(400);
        expect(errorsOf(result.body)).toContain(
          `big/a.bin: 'big/a.bin' unpacks to more than ${CHALLENGE_ARCHIVE_LIMITS.maxEntryBytes / (1024 * 1024)} MB: refused (a file that large goes through the Upload tab).`,
        );
        expect(ms).toBeLessThan(FAST_MS);
        expect(worstHealthMs).toBeLessThan(HEALTH_MS);
      } finally {
        clearInterval(sampler);
      }
      peak = Math.max(peak, process.memoryUsage().rss);
      // Neither entry was inflated, let alone held (they were 190 MB together).
      expect(peak - before).toBeLessThan(40 * 1024 * 1024);
    });
  });
}
