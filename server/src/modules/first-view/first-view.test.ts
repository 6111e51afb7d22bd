import type { FastifyRequest } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_EVENT_WINDOW, type TestApp } from '../../../test/build-test-app.js';
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
    FIRST_VIEW_PAGES: ['/', '/leaderboard', '/compete', '/challenge', '/announcements', '/rules'],
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
const requestWith = (cookie: string, url = '/') =>
  ({
    url,
    headers: {},
    cookies: { ctf_session: cookie.replace(/^ctf_session=/, '') },
  }) as unknown as FastifyRequest;
const challengePage = (id: number | string) => `/challenge?id=${id}`;
/** The test clock inside the test app's event window (it is over at the clock's own time). */
const duringTheEvent = (t: TestApp) => t.clock.set(Date.parse(TEST_EVENT_WINDOW.start) + 86_400_000);
const seedOf = (html: string) =>
  JSON.parse(/<script type="application\/json" id="first-view-data">(.*?)<\/script>/s.exec(html)![1]!) as {
    path: string;
    authenticated?: boolean;
    siteInfo: unknown;
    announcements: unknown;
    leaderboard?: { rows: unknown[]; total: number };
    user?: { username: string };
    completions?: unknown;
    challenge?: { id: string; detail: unknown };
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

    it("draws the challenge page for a signed-in player from the API's own answers for them, kept per state of those answers", async () => {
      const { renderer, renders } = fakeRenderer();
      const firstView = firstViewPages(t.ctx, renderer);
      duringTheEvent(t);
      await openSite(t);
      const player = await t.login('alice');
      const mate = await t.login('bob');
      await makeTeam(t, 'Red', [player.user!.id, mate.user!.id]);
      const box = await addChallenge(t, {
        name: 'Hinted box',
        description: '<p>Read the <em>source</em>.</p>',
        flag: 'flag{hinted-box-secret}',
        per_team: true,
        per_team_on_page: true,
        hints: [{ title: 'Nudge', content: 'Look closer', cost: 0 }],
      });
      const ask = (cookie: string) =>
        firstView(requestWith(cookie, ` ${challengePage(box.id)}&x=1`.trim()), '/challenge', TEMPLATE);

      const rendered = await ask(player.cookie!);
      expect(rendered!.personal).toBe(true);
      const html = String(rendered!.page.body('identity'));
      const seed = seedOf(html);
      expect(seed.path).toBe('/challenge');
      expect(seed.authenticated).toBe(true);
      // Rendered at the challenge's own address, from the answers the API gives this player.
      expect(renders.at(-1)!.url).toBe(challengePage(box.id));
      const detail = (await player.post('/api/ctf/challenge', { challenge_id: String(box.id) })).body;
      expect(seed.challenge).toEqual({ id: String(box.id), detail });
      expect(html).toContain('Hinted box');
      expect(html).toContain('Read the \\u003cem>source\\u003c/em>.');
      expect(seed.user).toEqual((await player.get('/api/user/info')).body);
      expect(seed.completions).toEqual((await player.post('/api/info/get-completions', {})).body);
      // The player's own per-team flag is theirs (sent private); the challenge's flag never is.
      expect(html).toContain(detail.team_flag);
      expect(html).not.toContain('flag{hinted-box-secret}');

      // Asked again with nothing changed: the kept page, not drawn again.
      const again = await ask(player.cookie!);
      expect(again!.page).toBe(rendered!.page);
      expect(renders).toHaveLength(1);

      // A teammate's page is their own: their record, not the player's.
      const mates = String((await ask(mate.cookie!))!.page.body('identity'));
      expect(mates).not.toBe(html);
      expect(seedOf(mates).user!.username).toBe('bob');
      expect(renders).toHaveLength(2);

      // A hint unlocked, then a solve: each gives a new page, drawn from the new answers.
      const hintId = (detail.hints as { _id: string }[])[0]!._id;
      await player.post('/api/ctf/unlock-hint', { hint_id: hintId });
      const unlocked = await ask(player.cookie!);
      expect(unlocked!.page).not.toBe(rendered!.page);
      expect(JSON.stringify(seedOf(String(unlocked!.page.body('identity'))))).toContain('Look closer');
      await player.post('/api/ctf/submit-flag', { challenge_id: String(box.id), flag: detail.team_flag });
      const solved = await ask(player.cookie!);
      expect(solved!.page).not.toBe(unlocked!.page);
      expect(JSON.stringify(seedOf(String(solved!.page.body('identity'))).user)).toContain(
        `"id":"${box.id}"`,
      );
      expect(renders).toHaveLength(4);
    });

    it('leaves the challenge page to the browser for a visitor, a token, and whatever the API refuses or locks', async () => {
      const { renderer, renders } = fakeRenderer();
      const firstView = firstViewPages(t.ctx, renderer);
      duringTheEvent(t);
      await openSite(t);
      const player = await t.login('alice');
      const open = await addChallenge(t, { name: 'Open' });
      const later = await addChallenge(t, {
        name: 'Later',
        release_at: new Date(t.clock.now().getTime() + 60_000).toISOString(),
      });
      const behind = await addChallenge(t, { name: 'Behind', prerequisites: [open.id] });
      const asPlayer = (url: string) => firstView(requestWith(player.cookie!, url), '/challenge', TEMPLATE);

      expect(
        await firstView(
          { ...visitorRequest, url: challengePage(open.id) } as FastifyRequest,
          '/challenge',
          TEMPLATE,
        ),
      ).toBeNull();
      const withToken = {
        url: challengePage(open.id),
        headers: { authorization: 'Bearer ctf_pat_not-a-token' },
        cookies: {},
      } as unknown as FastifyRequest;
      expect(await firstView(withToken, '/challenge', TEMPLATE)).toBeNull();
      // No id, an id the API does not take, an unknown challenge, one not released yet, one locked
      // behind its prerequisites.
      for (const url of ['/challenge', challengePage('abc'), challengePage('07'), challengePage(99999)])
        expect(await asPlayer(url), url).toBeNull();
      expect(await asPlayer(challengePage(later.id))).toBeNull();
      expect(await asPlayer(challengePage(behind.id))).toBeNull();
      // The site closed.
      await openSite(t, false);
      expect(await asPlayer(challengePage(open.id))).toBeNull();
      await openSite(t);
      // The event over: the page may show the published writeups, which the reader's clock decides.
      t.clock.set(Date.parse(TEST_EVENT_WINDOW.end) + 1);
      expect(await asPlayer(challengePage(open.id))).toBeNull();
      expect(renders).toHaveLength(0);
      duringTheEvent(t);
      expect(await asPlayer(challengePage(open.id))).not.toBeNull();
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
