import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { multipart } from '../../../test/archive-upload.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { scenario } from '../../../test/fixtures.js';
import { readZipArchive } from '../challenge-archive/archive-reader.js';
import { zipBuffer } from '../challenge-archive/archive-packing.js';
import { ArchiveRefusal, writeArchiveTo } from './event-archive.service.js';

let HANDOUT: Buffer;
const HOSTILE_TEAM = '<img src=x onerror=alert(1)>';
const DESCRIPTION =
  '<p>Read <a href="/api/ctf/download/handout.zip">the handout</a> and <a href="https://example.com/docs">the docs</a>.</p>' +
  '<p><img src="https://tracker.example/pixel.png" alt="a diagram"><img src="//tracker.example/p2.png"></p>';

/** Every file of a folder, relative paths with '/'. */
async function walk(root: string, dir = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await walk(root, rel)));
    else out.push(rel);
  }
  return out;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ctf-archive-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** An event over, with a team of a hostile name, divisions, files, announcements and hidden things. */
async function finishedEvent(kind: 'sqlite' | 'postgres') {
  HANDOUT = await zipBuffer([{ name: 'notes.txt', content: Buffer.from('the handout bytes\n') }]);
  const t = await scenario({
    kind,
    admins: ['boss'],
    users: ['ann', 'bob', 'cat'],
    teams: { [HOSTILE_TEAM]: ['ann', 'bob'] } as { readonly [HOSTILE_TEAM]: readonly ('ann' | 'bob')[] },
    challenges: {
      web: {
        name: 'Web <b>One</b>',
        category: 'Web Exploitation',
        difficulty: 'Easy',
        flag: 'flag{web-secret}',
      },
      crypto: {
        name: 'Crypto Two',
        category: 'Cryptography',
        difficulty: 'Hard',
        flag: 'flag{crypto-secret}',
      },
      hidden: { name: 'Hidden Three', category: 'General', flag: 'flag{hidden-secret}' },
    },
  });
  const hidden = await t.admin.post('/api/admin/ctf/toggle_status', { challenge_id: t.challenges.hidden.id });
  expect(hidden.status).toBe(200);
  // Divisions are picked before a first solve.
  await t.admin.post('/api/admin/divisions', { divisions: [{ name: 'Open' }, { name: 'Junior & <Co>' }] });
  const picked = await t.users.cat.post('/api/user/division', { division: 'Junior & <Co>' });
  expect(picked.status, JSON.stringify(picked.body)).toBe(200);
  await t.solve(t.users.ann, t.challenges.web);
  await t.solve(t.users.cat, t.challenges.web);
  await t.solve(t.users.ann, t.challenges.crypto);
  const { payload, headers } = multipart('handout.zip', HANDOUT);
  expect((await t.admin.post('/api/admin/ctf/upload', payload, headers)).status).toBe(200);
  const withFile = await t.admin.post('/api/admin/ctf/create_challenge', {
    name: 'Forensics Four',
    description: DESCRIPTION,
    category: 'Forensics',
    difficulty: 'Medium',
    written_by: 'boss',
    flag: 'flag{forensics-secret}',
    files: ['handout.zip'],
    release_at: null,
  });
  expect(withFile.status, JSON.stringify(withFile.body)).toBe(200);
  const later = await t.admin.post('/api/admin/ctf/create_challenge', {
    name: 'Scheduled Five',
    category: 'General',
    difficulty: 'Easy',
    written_by: 'boss',
    flag: 'flag{scheduled-secret}',
    release_at: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
  });
  expect(later.status, JSON.stringify(later.body)).toBe(200);
  const made = await t.admin.post('/api/admin/announcements/create', {
    title: 'Hints <soon>',
    body: 'See [the rules](https://example.com/rules) ![logo](https://tracker.example/logo.png)',
    pinned: false,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return t;
}

const FLAGS = ['web-secret', 'crypto-secret', 'hidden-secret', 'forensics-secret', 'scheduled-secret'];

for (const kind of testDatabaseKinds()) {
  describe(`the event's static archive on ${kind}`, () => {
    it('writes every page, resolves every link inside itself, and leaks nothing', async () => {
      const t = await finishedEvent(kind);
      const dir = await tempDir();
      const summary = await writeArchiveTo(t.ctx, path.join(dir, 'site'));
      const root = path.join(dir, 'site');
      const files = await walk(root);
      expect(files).toEqual(
        expect.arrayContaining([
          'index.html',
          'style.css',
          'scoreboard.html',
          'announcements.html',
          'challenges/index.html',
          'files/handout.zip',
        ]),
      );
      expect(files.filter((f) => f.startsWith('scoreboard-'))).toHaveLength(2);
      const challengePages = files.filter(
        (f) => f.startsWith('challenges/') && f !== 'challenges/index.html',
      );
      expect(challengePages, challengePages.join()).toHaveLength(3);
      expect(summary).toMatchObject({ challenges: 3, files: 1, competitors: 2 });
      expect(await readFile(path.join(root, 'files/handout.zip'))).toEqual(HANDOUT);

      const pages = files.filter((f) => f.endsWith('.html'));
      const all: string[] = [];
      for (const page of pages) {
        const html = await readFile(path.join(root, page), 'utf8');
        all.push(html);
        expect(html, page).toMatch(/^<!doctype html>\n<html lang="en">/);
        expect(html, page).toContain('<main>');
        for (const m of html.matchAll(/<(\w+)\b[^>]*?\s(href|src)="([^"]*)"[^>]*>/g)) {
          const [tag, attr, url] = [m[1]!, m[2]!, m[3]!.replace(/&amp;/g, '&')];
          if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(url)) {
            // Only plain links players or admins wrote leave the archive, and never as a request.
            expect(`${tag} ${attr}`, `${page}: ${url}`).toBe('a href');
            expect(m[0], page).toContain('rel="noopener noreferrer nofollow"');
            continue;
          }
          expect(url.startsWith('/'), `${page}: ${url}`).toBe(false);
          const target = path.posix.normalize(
            path.posix.join(path.posix.dirname(page), decodeURIComponent(url.split('#')[0]!)),
          );
          expect(target.startsWith('..'), `${page}: ${url}`).toBe(false);
          expect(files, `${page}: ${url}`).toContain(target);
        }
        expect(html, page).not.toMatch(/\ssrc="(https?:)?\/\//);
      }
      const text = all.join('\n');
      for (const flag of FLAGS) expect(text).not.toContain(flag);
      expect(text).not.toContain('@example.org');
      expect(text).not.toContain('Hidden Three');
      expect(text).not.toContain('Scheduled Five');
      expect(text).not.toContain('tracker.example');
      expect(text).not.toContain('<img src=x');
      expect(text).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(text).not.toContain('<b>One</b>');
      expect(text).not.toContain('Junior & <Co>');

      const index = await readFile(path.join(root, 'index.html'), 'utf8');
      expect(index).toContain(`Winner: <strong>&lt;img src=x onerror=alert(1)&gt;</strong>`);
      expect(index).toContain('Winner of Junior &amp; &lt;Co&gt;: <strong>cat</strong>');
      expect(index).toContain('<svg viewBox');
      const forensics = challengePages.find((p) => p.includes('forensics-four'))!;
      const page = await readFile(path.join(root, forensics), 'utf8');
      expect(page).toContain('<a href="../files/handout.zip">the handout</a>');
      expect(page).toContain('<img alt="a diagram" />');
      const board = await readFile(path.join(root, 'scoreboard.html'), 'utf8');
      expect(board).toMatch(/<caption>Scoreboard: 2 competitor\(s\), best first<\/caption>/);
      expect(board).toContain('<th scope="col">Division</th>');
    });

    it('refuses a folder that is not empty, writing nothing', async () => {
      const t = await finishedEvent(kind);
      const dir = await tempDir();
      await writeArchiveTo(t.ctx, dir);
      const before = await walk(dir);
      await expect(writeArchiveTo(t.ctx, dir)).rejects.toThrow(ArchiveRefusal);
      await expect(writeArchiveTo(t.ctx, dir)).rejects.toThrow(
        `${dir} is not empty: build the archive into a new or empty folder.`,
      );
      expect(await walk(dir)).toEqual(before);
    });

    it('shows the public board of a freeze not lifted, never a solve it held back', async () => {
      const t = await scenario({
        kind,
        admins: ['boss'],
        users: ['ann', 'bob'],
        challenges: { one: { name: 'One', difficulty: 'Easy' }, two: { name: 'Two', difficulty: 'Hard' } },
        solves: [['ann', 'one']],
      });
      const freezeAt = new Date(t.clock.now().getTime() + 1000).toISOString();
      expect((await t.admin.post('/api/admin/scoreboard/freeze', { freeze_at: freezeAt })).status).toBe(200);
      t.clock.advance(5000);
      await t.solve(t.users.bob, t.challenges.two);
      const dir = await tempDir();
      await writeArchiveTo(t.ctx, dir);
      const board = await readFile(path.join(dir, 'scoreboard.html'), 'utf8');
      expect(board).toContain('ann');
      expect(board).not.toContain('bob');
      expect(board).toContain('frozen at');
      const two = (await walk(dir)).find((f) => f.endsWith('-two.html'))!;
      expect(await readFile(path.join(dir, two), 'utf8')).toContain('<dt>Solves</dt><dd>0</dd>');
    });
  });
}

describe('GET /api/admin/archive.zip', () => {
  it('hands admins and monitors a ZIP with index.html at its root, audited; refuses players and other sites', async () => {
    const t = await finishedEvent('sqlite');
    const monitor = await t.login('watcher', { role: 'monitor' });
    for (const who of [t.admin, monitor]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/admin/archive.zip',
        headers: { cookie: who.cookie! },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/zip');
      expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="event-archive-/);
      const entries = await readZipArchive(res.rawPayload, 'archive.zip');
      expect([...entries.keys()]).toEqual(
        expect.arrayContaining(['index.html', 'scoreboard.html', 'files/handout.zip']),
      );
      expect(entries.get('index.html')!.toString()).toContain('Winner:');
    }
    const audit = await t.admin.get('/api/admin/audit?action=event.archive');
    expect(JSON.stringify(audit.body)).toContain('event.archive');

    expect((await t.users.ann.get('/api/admin/archive.zip')).status).toBe(403);
    expect((await t.visitor().get('/api/admin/archive.zip')).status).toBe(401);
    const crossSite = await t.admin.get('/api/admin/archive.zip', {
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    });
    expect(crossSite.status).toBe(403);
    const asImage = await t.admin.get('/api/admin/archive.zip', {
      'sec-fetch-site': 'same-origin',
      'sec-fetch-dest': 'image',
    });
    expect(asImage.status).toBe(403);
  });
});
