import type { FastifyRequest } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { addChallenge, makeTeam, openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { escapeForScript, firstViewPages, type FirstViewRenderer } from './first-view.service.js';

const TEMPLATE = [
  '<!doctype html><html><head><title>CTF</title></head><body>',
  '    <div id="root">',
  '      <main id="main" tabindex="-1"><div role="status">Page Loading. . .</div></main>',
  '    </div>',
  '    <link rel="stylesheet" href="/assets/index.css">',
  '  </body></html>',
].join('\n');

/** A renderer that writes what it was given, and counts its renders. */
function fakeRenderer() {
  const renders: { url: string; seed: unknown }[] = [];
  const renderer: FirstViewRenderer = {
    FIRST_VIEW_PAGES: ['/', '/leaderboard', '/compete', '/announcements', '/rules'],
    setSanitizer: () => undefined,
    setVisibleText: () => undefined,
    prepare: async () => undefined,
    renderFirstView(url, seed) {
      renders.push({ url, seed });
      return `<main id="main">rendered ${url}</main>`;
    },
  };
  return { renderer, renders };
}

const visitorRequest = { headers: {}, cookies: {} } as unknown as FastifyRequest;
const requestWith = (cookie: string) =>
  ({
    headers: {},
    cookies: { ctf_session: cookie.replace(/^ctf_session=/, '') },
  }) as unknown as FastifyRequest;
const seedOf = (html: string) =>
  JSON.parse(/<script type="application\/json" id="first-view-data">(.*?)<\/script>/s.exec(html)![1]!) as {
    path: string;
    authenticated?: boolean;
    siteInfo: unknown;
    announcements: unknown;
    leaderboard?: { rows: unknown[]; total: number };
  };

for (const kind of testDatabaseKinds()) {
  describe(`first views rendered by the server on ${kind}`, () => {
    let t: TestApp;
    beforeEach(async () => {
      t = await buildTestApp(kind);
    });
    afterEach(async () => {
      await t.close();
    });

    it('carries in the head the stylesheet’s rules that the rendered page can match, and no other', async () => {
      const { renderer } = fakeRenderer();
      const rules = [
        { css: 'main{margin:0}', needs: [[[], ['main']]] as [string[], string[]][] },
        { css: '.unused{color:red}', needs: [[['unused'], []]] as [string[], string[]][] },
      ];
      const rendered = await firstViewPages(t.ctx, renderer, rules)(visitorRequest, '/rules', TEMPLATE);
      const html = String(rendered!.page.body('identity'));
      expect(html).toContain('<style>main{margin:0}</style></head>');
      expect(html).not.toContain('.unused');
    });

    it('renders a page into the template from the answers the API sends, and carries them for hydration', async () => {
      const { renderer, renders } = fakeRenderer();
      const firstView = firstViewPages(t.ctx, renderer);
      const admin = await t.login('boss', { admin: true });
      await admin.post('/api/admin/announcements/create', { title: 'Hello </script><b>', body: 'Hi' });
      const rendered = await firstView(visitorRequest, '/', TEMPLATE);
      const html = String(rendered!.page.body('identity'));
      expect(rendered!.personal).toBe(false);
      expect(html).toContain('<div id="root"><main id="main">rendered /</main></div>');
      expect(html).not.toContain('Page Loading');
      // The stylesheet and the rest of the template stay.
      expect(html).toContain('<link rel="stylesheet" href="/assets/index.css">');
      // The answers the API sends, as they are: the HTML and the API never disagree.
      const seed = seedOf(html);
      expect(seed.path).toBe('/');
      // A public page is the same for everyone: no session is looked up for it.
      expect(seed.authenticated).toBeUndefined();
      expect(seed.siteInfo).toEqual((await t.visitor().get('/api/info/site')).body);
      expect(seed.announcements).toEqual((await t.visitor().get('/api/info/announcements')).body);
      // The seed is data in the head, not text of the page's body.
      expect(html.indexOf('id="first-view-data"')).toBeLessThan(html.indexOf('</head>'));
      // No text in the seed can close its element.
      expect(html.match(/<\/script>/g)).toHaveLength(1);
      expect(renders).toHaveLength(1);
      expect(renders[0]!.seed).toEqual(seed);
    });

    it('renders a page once per state of its answers: a change of them renders it again', async () => {
      const { renderer, renders } = fakeRenderer();
      const firstView = firstViewPages(t.ctx, renderer);
      const first = await firstView(visitorRequest, '/announcements', TEMPLATE);
      const again = await firstView(visitorRequest, '/announcements', TEMPLATE);
      expect(again!.page).toBe(first!.page);
      expect(renders).toHaveLength(1);
      const admin = await t.login('boss', { admin: true });
      await admin.post('/api/admin/announcements/create', { title: 'Wave 2', body: 'New challenges.' });
      const changed = await firstView(visitorRequest, '/announcements', TEMPLATE);
      expect(changed!.page.etag()).not.toBe(first!.page.etag());
      expect(renders).toHaveLength(2);
      expect(JSON.stringify(seedOf(String(changed!.page.body('identity'))).announcements)).toContain(
        'Wave 2',
      );
    });

    it("draws the leaderboard for a signed-in player from the board's first page as a visitor gets it; a visitor gets the plain page", async () => {
      const { renderer } = fakeRenderer();
      const firstView = firstViewPages(t.ctx, renderer);
      expect(await firstView(visitorRequest, '/leaderboard', TEMPLATE)).toBeNull();
      const player = await t.login('alice');
      const rendered = await firstView(requestWith(player.cookie!), '/leaderboard', TEMPLATE);
      expect(rendered!.personal).toBe(true);
      const seed = seedOf(String(rendered!.page.body('identity')));
      expect(seed.authenticated).toBe(true);
      const api = await t.visitor().get('/api/info/leaderboard?limit=50&offset=0');
      expect(seed.leaderboard).toEqual({ rows: api.body, total: Number(api.headers['x-total-count']) });
    });

    it("draws Compete for a signed-in player from the list everyone gets and the player's own answers; a closed site and a visitor get the plain page", async () => {
      const { renderer, renders } = fakeRenderer();
      const firstView = firstViewPages(t.ctx, renderer);
      const player = await t.login('alice');
      const mate = await t.login('bob');
      await makeTeam(t, 'Red', [player.user!.id, mate.user!.id]);
      const box = await addChallenge(t, { name: 'Box', flag: 'flag{box}' });
      // The site is closed: the browser draws the page, which says so.
      await openSite(t, false);
      expect(await firstView(requestWith(player.cookie!), '/compete', TEMPLATE)).toBeNull();
      await openSite(t);
      expect(await firstView(visitorRequest, '/compete', TEMPLATE)).toBeNull();
      await mate.post('/api/ctf/submit-flag', { challenge_id: String(box.id), flag: 'flag{box}' });

      const rendered = await firstView(requestWith(player.cookie!), '/compete', TEMPLATE);
      expect(rendered!.personal).toBe(true);
      const seed = seedOf(String(rendered!.page.body('identity'))) as Record<string, unknown>;
      expect(seed.authenticated).toBe(true);
      // The same answers the API sends: the list to everyone, the record and completions to the player.
      expect(seed.challenges).toEqual((await t.visitor().get('/api/ctf/challenges')).body);
      expect(seed.user).toEqual((await player.get('/api/user/info')).body);
      expect(seed.completions).toEqual((await player.post('/api/info/get-completions', {})).body);
      expect(JSON.stringify(seed.completions)).toContain(String(box.id));
      // Kept per state of those answers: asked again, nothing is drawn again; a solve draws anew.
      await firstView(requestWith(player.cookie!), '/compete', TEMPLATE);
      expect(renders.filter((r) => r.url === '/compete')).toHaveLength(1);
      await player.post('/api/ctf/submit-flag', { challenge_id: String(box.id), flag: 'flag{box}' });
      const after = await firstView(requestWith(player.cookie!), '/compete', TEMPLATE);
      expect(after!.page).not.toBe(rendered!.page);
      expect(renders.filter((r) => r.url === '/compete')).toHaveLength(2);
    });

    it('leaves every other page, a template it cannot place the view in, and a user page asked with refused credentials to the browser', async () => {
      const { renderer, renders } = fakeRenderer();
      const firstView = firstViewPages(t.ctx, renderer);
      expect(await firstView(visitorRequest, '/profile', TEMPLATE)).toBeNull();
      expect(await firstView(visitorRequest, '/rules', '<!doctype html><div id="app"></div>')).toBeNull();
      const withToken = {
        headers: { authorization: 'Bearer ctf_pat_not-a-token' },
        cookies: {},
      } as unknown as FastifyRequest;
      expect(await firstView(withToken, '/leaderboard', TEMPLATE)).toBeNull();
      expect(renders).toHaveLength(0);
    });
  });
}

describe('the seed inside its script element', () => {
  it('keeps every < in JSON strings as \\u003c, which JSON reads back the same', () => {
    const json = JSON.stringify({ name: '</script><script>alert(1)</script><!--' });
    const escaped = escapeForScript(json);
    expect(escaped).not.toContain('<');
    expect(JSON.parse(escaped)).toEqual(JSON.parse(json));
  });
});
