import { MESSAGES } from '@ctf/contract';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAST_SENDS } from '../../lib/cached-json.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { addChallenge, addFileRow, openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { toggleChallengeStatus } from './challenges.service.js';

const LIST = '/api/ctf/challenges';
const DETAIL = '/api/ctf/challenge';

for (const kind of testDatabaseKinds()) {
  describe(`public challenge calls on ${kind}`, () => {
    let t: TestApp;
    beforeEach(async () => {
      t = await buildTestApp(kind);
    });
    afterEach(async () => {
      await t.close();
    });

    describe('GET /api/ctf/challenges', () => {
      it('lists every challenge the same way for everyone, by points then name, never a flag', async () => {
        await openSite(t);
        await addFileRow(t, 'files.zip');
        const hard = await addChallenge(t, { name: 'Zeta', difficulty: 'Hard', files: ['files.zip'] });
        const easyB = await addChallenge(t, { name: 'Bravo', difficulty: 'Easy', written_by: 'Bob' });
        const easyA = await addChallenge(t, { name: 'Alpha', difficulty: 'Easy', category: 'Cryptography' });
        await toggleChallengeStatus(t.ctx, easyB.id);

        const visitor = await t.visitor().get(LIST);
        expect(visitor.status).toBe(200);
        expect(visitor.headers['content-type']).toMatch(/^application\/json/);
        expect(visitor.body).toEqual([
          {
            _id: String(easyA.id),
            name: 'Alpha',
            description: '<p>Find the flag.</p>',
            category: 'Cryptography',
            difficulty: 'Easy',
            written_by: 'Tester',
            points: 100,
            scoring_type: 'static',
            rating: 0,
            is_active: true,
            user_completions: 0,
            hlinks: [],
            first_blood: null,
          },
          expect.objectContaining({
            _id: String(easyB.id),
            name: 'Bravo',
            is_active: false,
            written_by: 'Bob',
          }),
          expect.objectContaining({ _id: String(hard.id), name: 'Zeta', points: 300, hlinks: ['files.zip'] }),
        ]);
        for (const c of [hard, easyA, easyB]) expect(visitor.text).not.toContain(c.flag);
        expect(visitor.text).not.toContain('"flag"');

        const participant = await (await t.login('ann')).get(LIST);
        const admin = await (await t.login('root', { admin: true })).get(LIST);
        expect(participant.text).toBe(visitor.text);
        expect(admin.text).toBe(visitor.text);
      });

      it('orders names within equal points case-insensitively, the same on every database', async () => {
        await openSite(t);
        for (const name of ['bravo', 'Charlie', 'alpha', 'Delta 10', 'Delta 9'])
          await addChallenge(t, { name });
        await addChallenge(t, { name: 'Aardvark', difficulty: 'Extreme' });
        const names = (await t.visitor().get(LIST)).body.map((c: { name: string }) => c.name);
        expect(names).toEqual(['alpha', 'bravo', 'Charlie', 'Delta 9', 'Delta 10', 'Aardvark']);
      });

      it('shows solve counts (admins not counted) and the mean rating', async () => {
        await openSite(t);
        const c = await addChallenge(t);
        const ann = await t.login('ann');
        const bob = await t.login('bob');
        const root = await t.login('root', { admin: true });
        for (const u of [ann, bob, root])
          await u.post('/api/ctf/submit-flag', { flag: c.flag, challenge_id: c.id });
        await ann.post('/api/ctf/rate-challenge', { challenge_id: c.id, rating: 5 });
        await bob.post('/api/ctf/rate-challenge', { challenge_id: c.id, rating: 2 });
        const [listed] = (await t.visitor().get(LIST)).body;
        expect(listed).toMatchObject({ user_completions: 2, rating: 3.5 });
      });

      it('answers 403 with the site message to everyone while the site is inactive', async () => {
        await addChallenge(t);
        for (const client of [t.visitor(), await t.login('ann'), await t.login('root', { admin: true })]) {
          const res = await client.get(LIST);
          expect(res.status).toBe(403);
          expect(res.body).toEqual({ message: MESSAGES.siteInactive, code: 'site_inactive' });
        }
        await openSite(t);
        expect((await t.visitor().get(LIST)).status).toBe(200);
        await openSite(t, false);
        expect((await t.visitor().get(LIST)).status).toBe(403);
      });

      it('revalidates with a strong ETag: 304 with no body while nothing changed', async () => {
        await openSite(t);
        const c = await addChallenge(t);
        const visitor = t.visitor();
        const first = await visitor.get(LIST);
        const etag = first.headers.etag as string;
        expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
        expect(first.headers['cache-control']).toBe('no-cache');

        const again = await visitor.get(LIST, { 'if-none-match': etag });
        expect(again.status).toBe(304);
        expect(again.text).toBe('');
        expect(again.headers.etag).toBe(etag);
        expect((await visitor.get(LIST, { 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
        expect((await visitor.get(LIST, { 'if-none-match': '"other"' })).status).toBe(200);

        // A solve changes the list: the very next read shows it under a new ETag.
        const ann = await t.login('ann');
        await ann.post('/api/ctf/submit-flag', { flag: c.flag, challenge_id: c.id });
        const after = await visitor.get(LIST, { 'if-none-match': etag });
        expect(after.status).toBe(200);
        expect(after.body[0].user_completions).toBe(1);
        expect(after.headers.etag).not.toBe(etag);
      });

      it('compresses for a browser (Brotli, else gzip), each coding under its own ETag', async () => {
        await openSite(t);
        for (let i = 0; i < 12; i++)
          await addChallenge(t, { name: `Challenge ${i}`, description: `<p>${'text '.repeat(40)}</p>` });
        const get = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: LIST, headers });
        const plain = await get({});
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.headers.vary).toBe('Accept-Encoding');
        const json = plain.body;
        expect(json.length).toBeGreaterThan(1024);

        const br = await get({ 'accept-encoding': 'gzip, deflate, br, zstd' });
        expect(br.headers['content-encoding']).toBe('br');
        expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(json);
        expect(br.rawPayload.length).toBeLessThan(json.length / 2);
        const gz = await get({ 'accept-encoding': 'gzip;q=1, br;q=0' });
        expect(gz.headers['content-encoding']).toBe('gzip');
        expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(json);
        expect(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size).toBe(3);

        // Revalidation is per representation: a Brotli copy's tag is fresh for a Brotli caller.
        const same = await get({ 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
        expect(same.statusCode).toBe(304);
        expect(same.rawPayload.length).toBe(0);
        expect((await get({ 'if-none-match': String(br.headers.etag) })).statusCode).toBe(200);

        // The first bodies are compressed fast, then well (another tag): a caller holding the
        // fast bytes still revalidates to a 304, under the new tag.
        const bodies = [br];
        for (let i = 0; i < FAST_SENDS; i++) bodies.push(await get({ 'accept-encoding': 'br' }));
        const last = bodies.at(-1)!;
        expect(last.headers.etag).not.toBe(br.headers.etag);
        expect(brotliDecompressSync(last.rawPayload).toString('utf8')).toBe(json);
        const held = await get({ 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
        expect(held.statusCode).toBe(304);
        expect(held.headers.etag).toBe(last.headers.etag);
      });

      it('is refused with the site message even to a caller holding the last ETag', async () => {
        await openSite(t);
        const etag = (await t.visitor().get(LIST)).headers.etag as string;
        await openSite(t, false);
        const res = await t.visitor().get(LIST, { 'if-none-match': etag });
        expect(res.status).toBe(403);
      });
    });

    describe('POST /api/ctf/challenge', () => {
      it('answers the challenge page for a participant', async () => {
        await openSite(t);
        const c = await addChallenge(t, { name: 'Page', difficulty: 'Medium', files: [] });
        const res = await (await t.login('ann')).post(DETAIL, { challenge_id: String(c.id) });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          _id: String(c.id),
          name: 'Page',
          category: 'General',
          difficulty: 'Medium',
          description: '<p>Find the flag.</p>',
          rating: 0,
          points: 200,
          scoring_type: 'static',
          written_by: 'Tester',
          hlinks: [],
          user_completions: 0,
          first_blood: null,
          hints: [],
          attempts_left: null,
        });
        expect(res.text).not.toContain(c.flag);
        // A numeric id is accepted too.
        expect((await (await t.login('ann')).post(DETAIL, { challenge_id: c.id })).status).toBe(200);
      });

      it('needs a login', async () => {
        await openSite(t);
        const c = await addChallenge(t);
        const res = await t.visitor().post(DETAIL, { challenge_id: c.id });
        expect(res.status).toBe(401);
        expect(res.body.message).toBe(MESSAGES.unauthorized);
      });

      it('refuses bad input and unknown ids', async () => {
        await openSite(t);
        const ann = await t.login('ann');
        for (const body of [{}, { challenge_id: 'abc' }, { challenge_id: -1 }, { challenge_id: '1; drop' }]) {
          const res = await ann.post(DETAIL, body);
          expect(res.status).toBe(400);
          expect(res.body.code).toBe('bad_input');
        }
        expect((await ann.post(DETAIL, { challenge_id: 999 })).status).toBe(404);
      });

      it('keeps an inactive challenge closed to participants but open to admins', async () => {
        await openSite(t);
        const c = await addChallenge(t);
        await toggleChallengeStatus(t.ctx, c.id);
        const res = await (await t.login('ann')).post(DETAIL, { challenge_id: c.id });
        expect(res.status).toBe(403);
        expect(res.body.message).toBe(MESSAGES.challengeInactive);
        expect(
          (await (await t.login('root', { admin: true })).post(DETAIL, { challenge_id: c.id })).status,
        ).toBe(200);
      });

      it('is refused to participants while the site is inactive; admins may still open it', async () => {
        const c = await addChallenge(t);
        const res = await (await t.login('ann')).post(DETAIL, { challenge_id: c.id });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ message: MESSAGES.siteInactive, code: 'site_inactive' });
        expect(
          (await (await t.login('root', { admin: true })).post(DETAIL, { challenge_id: c.id })).status,
        ).toBe(200);
      });
    });
  });
}
