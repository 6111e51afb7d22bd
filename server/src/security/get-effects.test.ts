import { LIVE_EVENTS_PATH } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, buildTestApp, type TestApp, type TestClient } from '../../test/build-test-app.js';
import { changedTables, snapshotDatabase } from '../../test/db-snapshot.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { contractEndpoints } from '../../test/zod-arbitrary.js';

/**
 * Issue 29, reproduction 2: `![](/api/auth/logout)`, `![](/api/admin/ctf/force_update)` and
 * `![](/api/admin/ctf/export)` acted for whoever opened the text, as them (the Origin check skipped
 * GETs). The few GETs that act are marked in the contract (`acts`) and answer only our own pages'
 * fetches and top-level navigations; every other GET changes nothing.
 */

const acting = contractEndpoints().filter((e) => e.endpoint.acts === true);

/** What a browser sends for each way a page could make it request a URL. */
const FORGED: Record<string, Record<string, string>> = {
  'an <img> in our own page': { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
  'a frame of our own page': { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' },
  'an <img> on another site': { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
  'a link on another site': { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
  'a fetch from a sibling site': { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
  'an old browser on another site': { referer: 'https://evil.example/page' },
};
const OWN_FETCH = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' };
const TYPED_ADDRESS = { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };

for (const kind of testDatabaseKinds()) {
  describe(`GETs with effects on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;
    beforeEach(async () => {
      t = await buildTestApp(kind);
      admin = await t.login('boss', { admin: true });
    });
    afterEach(async () => {
      await t.close();
    });

    const auditCount = async () => (await t.ctx.database.db.selectFrom('audit_log').select('id').execute()).length;

    it('the contract marks logout, force_update and every export as acting', () => {
      expect(acting.map((e) => e.endpoint.path).sort()).toEqual(
        [
          '/api/auth/logout',
          '/api/admin/ctf/force_update',
          '/api/admin/ctf/export',
          '/api/admin/archive.zip',
          '/api/admin/export/scoreboard.csv',
          '/api/admin/export/scoreboard.json',
          '/api/admin/export/solves.csv',
          '/api/admin/export/solves.json',
          '/api/admin/submissions.csv',
          '/api/admin/writeups.zip',
          '/api/ctf/writeup/file',
        ].sort(),
      );
    });

    it('refuses an image, a frame and any other site, as the admin, changing nothing', async () => {
      const before = await snapshotDatabase(t.ctx);
      const audits = await auditCount();
      for (const { endpoint } of acting) {
        for (const [how, headers] of Object.entries(FORGED)) {
          const res = await admin.get(endpoint.path, headers);
          expect(res.status, `${endpoint.path} from ${how}`).toBe(403);
          expect(res.body?.message ?? JSON.parse(res.text).message).toMatch(/never for an image, a frame or another site/);
        }
      }
      // The OAuth start stores a login state: the login popup's navigation only.
      for (const path of ['/api/auth/github', '/api/auth/discord'])
        for (const headers of Object.values(FORGED)) expect((await t.visitor().get(path, headers)).status, path).toBe(403);
      expect(changedTables(before, await snapshotDatabase(t.ctx))).toEqual([]);
      expect(await auditCount()).toBe(audits);
      expect((await admin.get('/api/admin/authenticated')).body.message).toBe('Authorized');
    });

    it("answers our own pages' fetches and top-level navigations (and clients with neither header)", async () => {
      const audits = await auditCount();
      expect((await admin.get('/api/admin/ctf/force_update', OWN_FETCH)).status).toBe(200);
      expect((await admin.get('/api/admin/ctf/export', TYPED_ADDRESS)).status).toBe(200);
      const navigation = { ...TYPED_ADDRESS, 'sec-fetch-site': 'same-origin', referer: `${TEST_ORIGIN}/admin/panel` };
      expect((await admin.get('/api/admin/export/scoreboard.csv', navigation)).status).toBe(200);
      expect((await admin.get('/api/admin/submissions.csv')).status).toBe(200);
      expect(await auditCount()).toBe(audits + 2);
      expect((await admin.get('/api/auth/logout', OWN_FETCH)).status).toBe(200);
      expect((await admin.get('/api/admin/authenticated')).status).toBe(401);
    });

    it('no other GET in the contract changes anything, even for an admin', async () => {
      const player = await t.login('player');
      await player.post('/api/team/create', { team_name: 'Readers' });
      const before = await snapshotDatabase(t.ctx);
      const audits = await auditCount();
      for (const { endpoint } of contractEndpoints()) {
        if (endpoint.method !== 'GET' || endpoint.acts || endpoint.path === LIVE_EVENTS_PATH) continue;
        for (const client of [admin, player, t.visitor()]) {
          const res = await client.get(endpoint.path.replace(/:(\w+)/g, 'x'));
          expect(res.status, endpoint.path).toBeLessThan(500);
        }
      }
      expect(changedTables(before, await snapshotDatabase(t.ctx))).toEqual([]);
      expect(await auditCount()).toBe(audits);
    });
  });
}
