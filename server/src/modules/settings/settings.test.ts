import { DEFAULT_HTML, DEFAULT_NAME, MESSAGES } from '@ctf/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';

function multipart(filename: string, content: Buffer, field = 'file') {
  const boundary = '----ctfLogoBoundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

function uploadLogo(client: TestClient, filename: string, content: Buffer, field?: string) {
  const { payload, headers } = multipart(filename, content, field);
  return client.post('/api/admin/settings/logo', payload, headers);
}

/** The first bytes of each accepted type, padded to a plausible image. */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 1),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.alloc(4),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(64, 3),
]);

for (const kind of testDatabaseKinds()) {
  describe(`settings (${kind})`, () => {
    let t: TestApp;
    afterEach(async () => t?.close());

    it("start from the environment and today's texts, and site info keeps its fields beside the new ones", async () => {
      t = await buildTestApp(kind, {
        EVENT_START: '2030-01-01T00:00:00Z',
        EVENT_END: '2030-01-08T00:00:00Z',
        COMMUNITY_URL: 'https://chat.example.org/',
      });
      const admin = await t.login('root', { admin: true });
      const res = await admin.get('/api/admin/settings');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: DEFAULT_NAME,
        eventStart: '2030-01-01T00:00:00.000Z',
        communityUrl: 'https://chat.example.org/',
        prizeText: '',
        challengePort: 2530,
        afterEnd: 'open',
        autoOpen: false,
        autoClose: false,
        logoUrl: null,
      });
      const info = await t.visitor().get('/api/info/site');
      expect(info.status).toBe(200);
      expect(info.body).toMatchObject({
        eventStart: '2030-01-01T00:00:00.000Z',
        prizeText: '',
        communityUrl: 'https://chat.example.org/',
        challengePort: 2530,
        activated: false,
        login: { discord: false, github: false, local: true },
        name: DEFAULT_NAME,
        about_html: DEFAULT_HTML.aboutMd,
        faq_html: DEFAULT_HTML.faqMd,
        rules_html: DEFAULT_HTML.rulesMd,
        logoUrl: null,
        afterEnd: 'open',
        divisions: [],
      });
    });

    it('tell a fresh site with no admin that it needs one, until there is one', async () => {
      t = await buildTestApp(kind);
      expect((await t.visitor().get('/api/info/site')).body.firstAdminNeeded).toBe(true);
      await t.login('player');
      expect((await t.visitor().get('/api/info/site')).body.firstAdminNeeded).toBe(true);
      await t.login('root', { admin: true });
      expect((await t.visitor().get('/api/info/site')).body.firstAdminNeeded).toBe(false);
    });

    it('save a partial body: only what it names changes, everywhere the site reads it', async () => {
      t = await buildTestApp(kind);
      const admin = await t.login('root', { admin: true });
      const before = await t.visitor().get('/api/info/site');
      const saved = await admin.post('/api/admin/settings', {
        name: 'Spring CTF',
        toolsUrl: 'https://tools.example.org/',
        aboutMd: 'Hello **students** <script>alert(1)</script>',
        challengePort: 31337,
      });
      expect(saved.status, saved.text).toBe(200);
      expect(saved.body).toMatchObject({
        acknowledge: true,
        settings: { name: 'Spring CTF', challengePort: 31337 },
      });
      expect(saved.body.settings.prizeText).toBe('');
      const after = await t.visitor().get('/api/info/site', { 'if-none-match': String(before.headers.etag) });
      expect(after.status).toBe(200);
      expect(after.body.name).toBe('Spring CTF');
      expect(after.body.challengePort).toBe(31337);
      expect(after.body.about_html).toBe('<p>Hello <strong>students</strong> </p>');
      expect(after.body.faq_html).toBe(DEFAULT_HTML.faqMd);
      const redirect = await t.visitor().get('/tools');
      expect(redirect.headers.location).toBe('https://tools.example.org/');
      // The cached answer revalidates.
      const again = await t.visitor().get('/api/info/site', { 'if-none-match': String(after.headers.etag) });
      expect(again.status).toBe(304);
    });

    it('refuse bad values with the field named, and change nothing', async () => {
      t = await buildTestApp(kind);
      const admin = await t.login('root', { admin: true });
      const cases: [Record<string, unknown>, string][] = [
        [{ communityUrl: 'javascript:alert(1)' }, 'communityUrl'],
        [{ toolsUrl: 'ftp://example.org/' }, 'toolsUrl'],
        [{ eventStart: '2031-01-02T00:00:00Z', eventEnd: '2031-01-01T00:00:00Z' }, 'eventEnd'],
        [{ eventEnd: '1999-01-01T00:00:00Z' }, 'eventEnd'],
        [{ eventStart: 'tomorrow' }, 'eventStart'],
        [{ accent: 'red' }, 'accent'],
        [{ afterEnd: 'later' }, 'afterEnd'],
        [{ challengePort: 70000 }, 'challengePort'],
        [{ challengeHost: 'a b' }, 'challengeHost'],
        [{ name: '' }, 'name'],
        [{ autoOpen: 'yes' }, 'autoOpen'],
        [{ faqMd: 'x'.repeat(20_001) }, 'faqMd'],
      ];
      for (const [body, field] of cases) {
        const res = await admin.post('/api/admin/settings', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.message, JSON.stringify(body)).toContain(field);
      }
      expect((await admin.post('/api/admin/settings', { colour: 'red' })).status).toBe(400);
      expect((await admin.get('/api/admin/settings')).body.eventEnd).toBe('2025-10-22T01:00:00.000Z');
    });

    it('are for admins only', async () => {
      t = await buildTestApp(kind);
      const player = await t.login('player');
      expect((await t.visitor().get('/api/admin/settings')).status).toBe(401);
      expect((await t.visitor().post('/api/admin/settings', { name: 'x' })).status).toBe(401);
      expect((await player.get('/api/admin/settings')).status).toBe(403);
      expect((await player.post('/api/admin/settings', { name: 'x' })).status).toBe(403);
      expect((await uploadLogo(player, 'logo.png', PNG)).status).toBe(403);
      expect((await uploadLogo(t.visitor(), 'logo.png', PNG)).status).toBe(401);
    });

    it('take a PNG, JPEG or WebP logo by its content, up to 1 MB, and serve it to everyone', async () => {
      t = await buildTestApp(kind);
      const admin = await t.login('root', { admin: true });
      for (const [name, bytes, type] of [
        ['a.png', PNG, 'image/png'],
        ['b.jpg', JPEG, 'image/jpeg'],
        ['c.bin', WEBP, 'image/webp'],
      ] as const) {
        const res = await uploadLogo(admin, name, bytes);
        expect(res.status, res.text).toBe(200);
        const info = await t.visitor().get('/api/info/site');
        expect(info.body.logoUrl).toBe(res.body.logoUrl);
        const logo = await t.visitor().get(res.body.logoUrl);
        expect(logo.status).toBe(200);
        expect(logo.headers['content-type']).toBe(type);
        expect(logo.headers['cache-control']).toContain('immutable');
      }
      const fake = await uploadLogo(admin, 'logo.png', Buffer.from('<svg onload=alert(1)></svg>'));
      expect(fake.status).toBe(400);
      expect(fake.body.message).toContain('file');
      const big = await uploadLogo(admin, 'big.png', Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]));
      expect(big.status).toBe(413);
      expect(big.body.message).toContain('file');
      expect((await uploadLogo(admin, 'a.png', PNG, 'image')).status).toBe(400);
      const json = await admin.post('/api/admin/settings/logo', { file: 'x' });
      expect(json.status).toBe(400);
      expect(json.body.message).toContain('file');
    });

    it('open the site at the start and close it at the end on their own, once each, recorded', async () => {
      t = await buildTestApp(kind);
      t.clock.set('2031-01-01T00:00:00Z');
      const admin = await t.login('root', { admin: true });
      const saved = await admin.post('/api/admin/settings', {
        eventStart: '2031-01-02T00:00:00Z',
        eventEnd: '2031-01-09T00:00:00Z',
        autoOpen: true,
        autoClose: true,
      });
      expect(saved.status, saved.text).toBe(200);
      expect((await t.visitor().get('/api/info/site')).body.activated).toBe(false);
      t.clock.set('2031-01-02T00:00:00Z');
      expect((await t.visitor().get('/api/info/site')).body.activated).toBe(true);
      expect((await admin.get('/api/admin/get_site_info')).body.activated).toBe(true);
      // An admin switches it off by hand: the transition already happened, so it stays off.
      await admin.post('/api/admin/update_site_info', { activated: false });
      t.clock.advance(60_000);
      expect((await t.visitor().get('/api/info/site')).body.activated).toBe(false);
      await admin.post('/api/admin/update_site_info', { activated: true });
      t.clock.set('2031-01-09T00:00:01Z');
      expect((await t.visitor().get('/api/ctf/challenges')).body.message).toBe(MESSAGES.siteInactive);
      const rows = await t.ctx.database.db
        .selectFrom('site_transitions')
        .select(['key', 'action'])
        .orderBy('key')
        .execute();
      expect(rows).toEqual([
        { key: 'close@2031-01-09T00:00:00.000Z', action: 'close' },
        { key: 'open@2031-01-02T00:00:00.000Z', action: 'open' },
      ]);
    });

    it('with practice after the end, the end transition leaves the site open', async () => {
      t = await buildTestApp(kind);
      t.clock.set('2031-01-01T00:00:00Z');
      const admin = await t.login('root', { admin: true });
      await admin.post('/api/admin/update_site_info', { activated: true });
      await admin.post('/api/admin/settings', {
        eventStart: '2030-12-01T00:00:00Z',
        eventEnd: '2031-01-02T00:00:00Z',
        afterEnd: 'practice',
        autoClose: true,
      });
      t.clock.set('2031-01-03T00:00:00Z');
      expect((await t.visitor().get('/api/info/site')).body).toMatchObject({
        activated: true,
        afterEnd: 'practice',
      });
      const rows = await t.ctx.database.db.selectFrom('site_transitions').select('action').execute();
      expect(rows).toEqual([{ action: 'after the end: practice' }]);
    });
  });
}
