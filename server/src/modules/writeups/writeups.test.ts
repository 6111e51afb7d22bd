import { MESSAGES, WRITEUP_MAX_BYTES, markdownFindingMessage, pdfFindingMessage } from '@ctf/contract';
import { deflateSync } from 'node:zlib';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/databases.js';
import { startedEvent, type StartedEvent } from '../../../test/fixtures.js';
import { PDF, handIn, setWriteups, writeupForm } from '../../../test/writeup-upload.js';
import { releasedTogether } from '../../../test/barrier.js';
import { TEST_ORIGIN } from '../../../test/build-test-app.js';
import { readZipArchive } from '../challenge-archive/archive-reader.js';

const MINE = '/api/user/writeups';
const ADMIN = '/api/admin/writeups';
const DURING = '2025-10-16T12:00:00Z';
const AFTER = '2025-10-25T12:00:00Z';

for (const kind of testDatabaseKinds()) {
  describe(`writeups on ${kind}`, () => {
    let t: StartedEvent<'ann' | 'bob' | 'cat', 'boss', 'easy' | 'hard', 'Red'>;
    beforeEach(async () => {
      t = await startedEvent({
        kind,
        admins: ['boss'],
        users: ['ann', 'bob', 'cat'],
        teams: { Red: ['ann', 'bob'] },
        challenges: { easy: 'Easy', hard: 'Hard' },
        solves: [
          ['ann', 'easy'],
          ['cat', 'easy'],
        ],
      });
      t.clock.set(DURING);
    });
    afterEach(async () => {
      await t.close();
    });
    const stored = async () => {
      try {
        // Temporary files (.upload-*.part) included: a refused upload leaves none behind.
        return await readdir(path.join(t.config.uploadDir, 'writeups'));
      } catch {
        return [];
      }
    };

    it('refuses while closed or past the deadline, and an unsolved challenge, with the exact messages', async () => {
      const easy = t.challenges.easy.id;
      let res = await handIn(t.users.ann, easy, { url: 'https://example.org/w' });
      expect([res.status, res.body.message]).toEqual([403, MESSAGES.writeupsClosed]);
      await setWriteups(t.admin, { open: true, deadline: '2025-10-17T00:00:00Z', note: 'Hand them in' });
      res = await handIn(t.users.ann, t.challenges.hard.id, { url: 'https://example.org/w' });
      expect([res.status, res.body.message]).toEqual([403, MESSAGES.writeupSolveFirst]);
      // A team-mate who did not solve it himself hands in for the team that did.
      res = await handIn(t.users.bob, easy, { url: 'https://example.org/w' });
      expect(res.status).toBe(200);
      expect(res.body._id).toMatch(/^[0-9]+$/);
      t.clock.set('2025-10-17T00:00:01Z');
      res = await handIn(t.users.ann, easy, { url: 'https://example.org/w2' });
      expect([res.status, res.body.message]).toEqual([403, MESSAGES.writeupsClosed]);
      expect((await handIn(t.users.ann, 99999, { url: 'https://example.org/w' })).status).toBe(404);
      expect((await handIn(t.visitor(), easy, { url: 'https://example.org/w' })).status).toBe(401);
      const info = await t.visitor().get('/api/info/site');
      expect(info.body.writeups).toEqual({
        open: true,
        deadline: '2025-10-17T00:00:00.000Z',
        note: 'Hand them in',
      });
    });

    it('refuses bad links and hostile files with a 400 naming the problem, and stores nothing', async () => {
      await setWriteups(t.admin, { open: true });
      const easy = t.challenges.easy.id;
      const refused: [Parameters<typeof handIn>[2], string][] = [
        [{ url: 'http://example.org/w' }, MESSAGES.writeupLinkNotHttps],
        [{ url: 'javascript:alert(1)' }, MESSAGES.writeupLinkNotHttps],
        [{ url: 'not a url' }, MESSAGES.writeupLinkNotHttps],
        [{ url: `https://example.org/${'a'.repeat(2000)}` }, MESSAGES.writeupLinkTooLong],
        [{ file: { name: 'w.html', content: '<p>hi</p>' } }, MESSAGES.writeupFileType],
        [{ file: { name: 'w.pdf.html', content: PDF } }, MESSAGES.writeupFileType],
        [
          {
            file: {
              name: 'w.pdf',
              content: '<html><script>alert(1)</script></html>',
              type: 'application/pdf',
            },
          },
          MESSAGES.writeupNotPdf,
        ],
        [
          { file: { name: 'w.md', content: '\uFEFF  <!DOCTYPE html><script>alert(1)</script>' } },
          MESSAGES.writeupMarkdownIsHtml,
        ],
        [
          { file: { name: 'w.md', content: '<svg onload="alert(1)"></svg>' } },
          MESSAGES.writeupMarkdownIsHtml,
        ],
        [{ file: { name: 'w.md', content: '<SCRIPT>alert(1)</SCRIPT>' } }, MESSAGES.writeupMarkdownIsHtml],
        [
          { file: { name: 'w.md', content: Buffer.from([0x23, 0x20, 0x00, 0x41]) } },
          MESSAGES.writeupMarkdownNotText,
        ],
        [
          { file: { name: 'w.md', content: Buffer.from([0x23, 0x20, 0xc3, 0x28]) } },
          MESSAGES.writeupMarkdownNotText,
        ],
        [{ file: { name: 'w.md', content: '' } }, MESSAGES.writeupFileEmpty],
        // Checked whole: what hides after an innocent start, or inside a compressed stream.
        [
          { file: { name: 'w.md', content: '<!-- x --><html><script>alert(1)</script>' } },
          markdownFindingMessage('an HTML document (<html>)', 1),
        ],
        [
          {
            file: {
              name: 'w.pdf',
              content: Buffer.from(
                '%PDF-1.4\n1 0 obj << /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\n%%EOF\n',
              ),
            },
          },
          pdfFindingMessage('JavaScript (/JavaScript)'),
        ],
        [
          {
            file: {
              name: 'w.pdf',
              content: Buffer.concat([
                Buffer.from('%PDF-1.5\n1 0 obj << /Type /ObjStm /Filter /FlateDecode >>\nstream\n'),
                deflateSync(Buffer.from('<< /S /Launch /F (calc.exe) >>')),
                Buffer.from('\nendstream\nendobj\n%%EOF\n'),
              ]),
            },
          },
          pdfFindingMessage('a launch action (/Launch)'),
        ],
        [
          { file: { name: 'big.md', content: Buffer.alloc(WRITEUP_MAX_BYTES + 10, 0x61) } },
          MESSAGES.writeupFileTooLarge,
        ],
        [
          { file: { name: 'big.pdf', content: Buffer.concat([PDF, Buffer.alloc(WRITEUP_MAX_BYTES, 0x20)]) } },
          MESSAGES.writeupFileTooLarge,
        ],
      ];
      for (const [what, message] of refused) {
        const res = await handIn(t.users.ann, easy, what);
        expect([res.status, res.body.message], JSON.stringify(what).slice(0, 80)).toEqual([400, message]);
      }
      const both = writeupForm(
        { challenge_id: String(easy), url: 'https://example.org/w' },
        { name: 'w.md', content: '# W' },
      );
      let res = await t.users.ann.post('/api/ctf/writeup', both.payload, both.headers);
      expect([res.status, res.body.message]).toEqual([400, MESSAGES.writeupLinkAndFile]);
      const none = writeupForm({ challenge_id: String(easy) });
      res = await t.users.ann.post('/api/ctf/writeup', none.payload, none.headers);
      expect([res.status, res.body.message]).toEqual([400, MESSAGES.writeupLinkOrFile]);
      res = await t.users.ann.post('/api/ctf/writeup', { challenge_id: easy, url: 'https://example.org' });
      expect(res.status).toBe(400);
      expect((await t.users.ann.get(MINE)).body).toEqual([]);
      expect(await stored()).toEqual([]);
      // The limit itself is accepted.
      res = await handIn(t.users.ann, easy, {
        file: { name: 'max.md', content: Buffer.alloc(WRITEUP_MAX_BYTES, 0x61) },
      });
      expect(res.status).toBe(200);
    });

    it('takes a link or a file, replaces it in place, keeps odd names safe, and serves files safely', async () => {
      await setWriteups(t.admin, { open: true });
      const easy = t.challenges.easy.id;
      let res = await handIn(t.users.ann, easy, { url: 'https://example.org/ann' });
      const id = res.body._id as string;
      res = await handIn(t.users.bob, easy, {
        file: { name: '../../etc/pass wd<script>.md', content: '# Our writeup\n\n<b>bold</b> <i>x</i>' },
      });
      expect(res.body._id).toBe(id);
      const mine = (await t.users.ann.get(MINE)).body;
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        _id: id,
        challenge_id: String(easy),
        reviewed: false,
        published: false,
      });
      expect(mine[0].url).toBeUndefined();
      expect(mine[0].file).toMatchObject({ name: 'pass-wd-script.md', type: 'text/markdown' });
      expect(await stored()).toHaveLength(1);
      const download = await t.users.bob.get(mine[0].file.href);
      expect(download.status).toBe(200);
      expect(download.headers['content-disposition']).toBe('attachment; filename="pass-wd-script.md"');
      expect(download.headers['content-security-policy']).toMatch(/^sandbox/);
      expect(download.headers['x-content-type-options']).toBe('nosniff');
      expect(download.text).toContain('<b>bold</b> <i>x</i>');
      // Another competitor cannot read it before it is published and the event over.
      expect((await t.users.cat.get(mine[0].file.href)).status).toBe(404);
      // The admin reads it in the browser as sandboxed plain text, never as HTML.
      const list = (await t.admin.get(ADMIN)).body;
      const read = await t.admin.get(list[0].file.href);
      expect(list[0].file.href).toMatch(/inline=1$/);
      expect(read.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(read.headers['content-security-policy']).toMatch(/^sandbox/);
      // A PDF replaces it and the Markdown file is gone from disk; a PDF is always an attachment.
      await handIn(t.users.ann, easy, { file: { name: 'w.pdf', content: PDF } });
      expect(await stored()).toHaveLength(1);
      const pdf = await t.admin.get((await t.admin.get(ADMIN)).body[0].file.href);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['content-disposition']).toBe('attachment; filename="w.pdf"');
      await handIn(t.users.ann, easy, { url: 'https://example.org/again' });
      expect(await stored()).toEqual([]);
    });

    it('checks the gates after the file when the file comes before challenge_id, keeping nothing', async () => {
      await setWriteups(t.admin, { open: true });
      const body = (challengeId: number) => {
        const boundary = '----fileFirst';
        return {
          payload: Buffer.concat([
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="w.md"\r\nContent-Type: text/markdown\r\n\r\n# Mine\r\n`,
            ),
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="challenge_id"\r\n\r\n${challengeId}\r\n--${boundary}--\r\n`,
            ),
          ]),
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        };
      };
      let sent = body(t.challenges.hard.id);
      let res = await t.users.ann.post('/api/ctf/writeup', sent.payload, sent.headers);
      expect([res.status, res.body.message]).toEqual([403, MESSAGES.writeupSolveFirst]);
      expect(await stored()).toEqual([]);
      sent = body(t.challenges.easy.id);
      res = await t.users.ann.post('/api/ctf/writeup', sent.payload, sent.headers);
      expect(res.status).toBe(200);
      expect(await stored()).toHaveLength(1);
      // A second file, or a field the form never sends, is refused.
      const extra = writeupForm({ challenge_id: String(t.challenges.easy.id), flag: 'x' });
      res = await t.users.ann.post('/api/ctf/writeup', extra.payload, extra.headers);
      expect([res.status, res.body.message]).toEqual([400, "Unexpected field 'flag'."]);
    });

    it('keeps one writeup when two members hand in at once, and no stray file', async () => {
      await setWriteups(t.admin, { open: true });
      const easy = t.challenges.easy.id;
      const answers = await releasedTogether([
        () => handIn(t.users.ann, easy, { file: { name: 'ann.md', content: '# Ann' } }),
        () => handIn(t.users.bob, easy, { file: { name: 'bob.pdf', content: PDF } }),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(answers[0]!.body._id).toBe(answers[1]!.body._id);
      const rows = await t.ctx.database.db.selectFrom('writeups').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(await stored()).toEqual([rows[0]!.storage_key]);
    });

    it('lists, filters, reviews and publishes for admins (audited); monitors read only', async () => {
      await setWriteups(t.admin, { open: true });
      await handIn(t.users.ann, t.challenges.easy.id, { url: 'https://example.org/red' });
      await handIn(t.users.cat, t.challenges.easy.id, { file: { name: 'cat.md', content: '# Cat' } });
      let list = (await t.admin.get(ADMIN)).body;
      expect(list.map((w: { competitor: string }) => w.competitor)).toEqual(['Red', 'cat']);
      expect(list[0]).toMatchObject({
        challenge: t.challenges.easy.name,
        url: 'https://example.org/red',
        division: null,
      });
      expect((await t.admin.get(`${ADMIN}?competitor=CAT`)).body).toHaveLength(1);
      expect((await t.admin.get(`${ADMIN}?challenge_id=${t.challenges.hard.id}`)).body).toEqual([]);
      expect((await t.admin.get(`${ADMIN}?division=Students`)).body).toEqual([]);
      const monitor = await t.login('mona', { role: 'monitor' });
      expect((await monitor.get(ADMIN)).status).toBe(200);
      // The staff who may list writeups read each file; an author (challenges only) does not.
      expect((await monitor.get(list[1].file.href)).status).toBe(200);
      const author = await t.login('abe', { role: 'author' });
      expect((await author.get(list[1].file.href)).status).toBe(404);
      expect((await author.get(ADMIN)).status).toBe(403);
      const body = { writeup_id: list[1]._id, reviewed: true, published: true };
      expect((await monitor.post(`${ADMIN}/review`, body)).status).toBe(403);
      expect((await t.users.ann.get(ADMIN)).status).toBe(403);
      expect((await t.admin.post(`${ADMIN}/review`, { ...body, writeup_id: '99999' })).status).toBe(404);
      expect((await t.admin.post(`${ADMIN}/review`, body)).body.acknowledge).toBe(true);
      list = (await t.admin.get(ADMIN)).body;
      expect(list[1]).toMatchObject({ reviewed: true, published: true });
      const audit = await t.ctx.database.db
        .selectFrom('audit_log')
        .select(['action', 'target'])
        .where('action', '=', 'writeup.review')
        .execute();
      expect(audit).toHaveLength(1);
      // Published ones show after the event only; a replacement is a new version, unpublished.
      const published = `/api/info/writeups?challenge_id=${t.challenges.easy.id}`;
      expect((await t.users.ann.get(published)).body).toEqual([]);
      t.clock.set(AFTER);
      const shown = (await t.users.ann.get(published)).body;
      expect(shown).toHaveLength(1);
      expect(shown[0]).toMatchObject({ competitor: 'cat', file: { name: 'cat.md' } });
      expect((await t.users.ann.get(shown[0].file.href)).status).toBe(200);
      await setWriteups(t.admin, { open: true });
      await handIn(t.users.cat, t.challenges.easy.id, { file: { name: 'cat2.md', content: '# Cat 2' } });
      expect((await t.users.ann.get(published)).body).toEqual([]);
    });

    it('downloads every writeup as one ZIP with index.csv, audited', async () => {
      await setWriteups(t.admin, { open: true });
      await handIn(t.users.ann, t.challenges.easy.id, { url: 'https://example.org/red' });
      await handIn(t.users.cat, t.challenges.easy.id, { file: { name: 'cat.pdf', content: PDF } });
      const res = await t.admin.request({ method: 'GET', url: `${ADMIN}.zip` });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/zip');
      const raw = (
        await t.app.inject({
          method: 'GET',
          url: `${ADMIN}.zip`,
          headers: { cookie: t.admin.cookie!, origin: TEST_ORIGIN },
        })
      ).rawPayload;
      const entries = await readZipArchive(raw, 'writeups.zip');
      const names = [...entries.keys()];
      expect(names[0]).toBe('index.csv');
      expect(names[1]).toMatch(/^challenge-\d+-\d+\/cat-\d+\.pdf$/);
      expect(entries.get(names[1]!)!.equals(PDF)).toBe(true);
      const csv = entries.get('index.csv')!.toString('utf8').trim().split('\n');
      expect(csv[0]).toBe('challenge,competitor,division,kind,file/url,submittedAt,reviewed,published');
      expect(csv[1]).toMatch(
        /^Challenge \d+,Red,,link,https:\/\/example.org\/red,2025-10-16T12:00:00.000Z,false,false$/,
      );
      expect(csv[2]).toContain(`,cat,,file,${names[1]},`);
      const audit = await t.ctx.database.db
        .selectFrom('audit_log')
        .select('action')
        .where('action', '=', 'writeup.export')
        .execute();
      expect(audit).toHaveLength(2);
      const monitor = await t.login('mona', { role: 'monitor' });
      expect((await monitor.get(`${ADMIN}.zip`)).status).toBe(200);
      expect((await t.users.ann.get(`${ADMIN}.zip`)).status).toBe(403);
    });
  });
}
