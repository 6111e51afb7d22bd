import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { multipart } from '../../../test/archive-upload.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { scenario } from '../../../test/fixtures.js';
import { PDF, handIn, setWriteups } from '../../../test/writeup-upload.js';
import { zipBuffer } from '../challenge-archive/archive-packing.js';
import { writeArchiveTo } from './event-archive.service.js';

const DURING = '2025-10-16T12:00:00Z';
const AFTER = '2025-10-25T12:00:00Z';

async function archiveOf(t: { ctx: Parameters<typeof writeArchiveTo>[0] }) {
  const dir = await mkdtemp(path.join(tmpdir(), 'ctf-archive-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const summary = await writeArchiveTo(t.ctx, path.join(dir, 'site'));
  const root = path.join(dir, 'site');
  const files = (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
  const page = (name: string) => readFile(path.join(root, name), 'utf8');
  const challengePage = async (slug: string) => page(files.find((f) => f.endsWith(`-${slug}.html`))!);
  return { summary, files, root, page, challengePage };
}

for (const kind of testDatabaseKinds()) {
  describe(`solutions and writeups in the archive on ${kind}`, () => {
    it('adds visible solutions with their files and published writeups once the event has ended', async () => {
      const t = await scenario({
        kind,
        admins: ['boss'],
        users: ['ann', 'bob', 'cat'],
        teams: { 'Red <b>Team</b>': ['ann', 'bob'] },
        challenges: {
          hard: {
            name: 'Hard Two',
            difficulty: 'Hard',
            solution: { content: 'Only for those who solved it.', visibility: 'solved' },
          },
          shy: { name: 'Shy Three', solution: { content: 'SECRET-HIDDEN-SOLUTION', visibility: 'hidden' } },
        },
      });
      const { payload, headers } = multipart(
        'walkthrough.zip',
        await zipBuffer([{ name: 'solve.py', content: Buffer.from('print(1)\n') }]),
      );
      expect((await t.admin.post('/api/admin/ctf/upload', payload, headers)).status).toBe(200);
      const made = await t.admin.post('/api/admin/ctf/create_challenge', {
        name: 'Easy One',
        category: 'General',
        difficulty: 'Easy',
        written_by: 'boss',
        flag: 'flag{easy-one}',
        solution: {
          content:
            'Run **strings**, then [the script](/api/ctf/download/walkthrough.zip). ![shot](https://tracker.example/a.png)',
          visibility: 'after_end',
          files: ['walkthrough.zip'],
        },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      t.clock.set(DURING);
      const listed = (await t.admin.get('/api/admin/ctf/fetch_challenges')).body as {
        _id: string;
        name: string;
      }[];
      const easyId = Number(listed.find((c) => c.name === 'Easy One')!._id);
      const easy = { id: easyId, name: 'Easy One', flag: 'flag{easy-one}' };
      await t.solve(t.users.ann, easy);
      await t.solve(t.users.cat, easy);
      await t.solve(t.users.cat, t.challenges.hard);

      await setWriteups(t.admin, { open: true });
      const link = await handIn(t.users.bob, easy.id, { url: 'https://blog.example/easy' });
      const file = await handIn(t.users.cat, easy.id, {
        file: { name: 'my <writeup>.pdf', content: PDF, type: 'application/pdf' },
      });
      const unpublished = await handIn(t.users.cat, t.challenges.hard.id, {
        url: 'https://blog.example/not-yet',
      });
      for (const r of [link, file, unpublished]) expect(r.status, JSON.stringify(r.body)).toBe(200);
      for (const r of [link, file]) {
        const res = await t.admin.post('/api/admin/writeups/review', {
          writeup_id: r.body._id,
          reviewed: true,
          published: true,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }

      // Before the end: the archive holds neither, and says so.
      const before = await archiveOf(t);
      expect(before.summary.writeups).toBe(0);
      expect(await before.page('index.html')).toContain('it holds no solutions or writeups');
      expect(await before.challengePage('easy-one')).not.toContain('<h2>Solution</h2>');
      expect(before.files.some((f) => f.startsWith('writeups/'))).toBe(false);
      expect(before.files).not.toContain('files/walkthrough.zip');

      t.clock.set(AFTER);
      const after = await archiveOf(t);
      expect(after.summary.writeups).toBe(2);
      const easyPage = await after.challengePage('easy-one');
      expect(easyPage).toContain('<h2>Solution</h2>');
      expect(easyPage).toContain('<strong>strings</strong>');
      expect(easyPage).toContain('<a href="../files/walkthrough.zip">the script</a>');
      expect(easyPage).toContain('<img alt="shot" />');
      expect(easyPage).not.toContain('tracker.example');
      expect(after.files).toContain('files/walkthrough.zip');
      expect(easyPage).toContain('<h2>Writeups</h2>');
      expect(easyPage).toContain(
        'Red &lt;b&gt;Team&lt;/b&gt;: <a href="https://blog.example/easy" rel="noopener noreferrer nofollow">https://blog.example/easy</a>',
      );
      const pdf = after.files.find((f) => f.startsWith('writeups/') && f.endsWith('.pdf'))!;
      expect(pdf).toMatch(/^writeups\/\d+-[A-Za-z0-9._-]+\.pdf$/);
      expect(await readFile(path.join(after.root, pdf))).toEqual(PDF);
      expect(easyPage, easyPage).toContain(`cat: <a href="../${pdf}">my-writeup.pdf</a> (PDF, 1 kB)`);
      // A 'solved' solution is for those who solved it: the public archive leaves it out.
      expect(await after.challengePage('hard-two')).not.toContain('Only for those who solved it.');
      expect(await after.challengePage('hard-two')).not.toContain('<h2>Solution</h2>');
      expect(await after.challengePage('hard-two')).not.toContain('not-yet');
      // Every relative link of every page (solutions' and writeups' included) resolves inside it.
      for (const name of after.files.filter((f) => f.endsWith('.html'))) {
        for (const m of (await after.page(name)).matchAll(/\s(?:href|src)="([^"]*)"/g)) {
          if (/^https:\/\//.test(m[1]!)) continue;
          const target = path.posix.normalize(
            path.posix.join(path.posix.dirname(name), decodeURIComponent(m[1]!)),
          );
          expect(after.files, `${name}: ${m[1]}`).toContain(target);
        }
      }
      const shy = await after.challengePage('shy-three');
      expect(shy).not.toContain('SECRET-HIDDEN-SOLUTION');
      expect(shy).not.toContain('<h2>Solution</h2>');
      expect(shy).not.toContain('<h2>Writeups</h2>');
    });
  });
}
