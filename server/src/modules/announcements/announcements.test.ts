import { ANNOUNCEMENT_BODY_MAX_LENGTH, ANNOUNCEMENT_TITLE_MAX_LENGTH } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';

const LIST = '/api/info/announcements';
const ADMIN_LIST = '/api/admin/announcements';
const CREATE = '/api/admin/announcements/create';
const UPDATE = '/api/admin/announcements/update';
const DELETE = '/api/admin/announcements/delete';

for (const kind of testDatabaseKinds()) {
  describe(`announcements on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;
    beforeEach(async () => {
      t = await buildTestApp(kind);
      admin = await t.login('boss', { admin: true });
    });
    afterEach(async () => {
      await t.close();
    });

    const liveEvents = () =>
      t.ctx.database.db
        .selectFrom('live_events')
        .select(['type', 'data'])
        .where('type', '=', 'announcement')
        .orderBy('id')
        .execute();

    it('posts, lists to visitors while the site is inactive (pinned first, then newest), edits and deletes', async () => {
      const first = await admin.post(CREATE, {
        title: '  Welcome  ',
        body: '# Hello\n\nThe event **starts** soon.',
      });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        acknowledge: true,
        message: 'Announcement posted.',
        _id: expect.any(String),
      });
      t.clock.advance(60_000);
      const second = await admin.post(CREATE, { title: 'Rules', body: 'Be kind.', pinned: true });
      t.clock.advance(60_000);
      const third = await admin.post(CREATE, { title: 'Wave 2', body: 'New challenges.' });

      const list = await t.visitor().get(LIST);
      expect(list.status).toBe(200);
      expect(list.body.map((a: { title: string }) => a.title)).toEqual(['Rules', 'Wave 2', 'Welcome']);
      expect(list.body[2]).toEqual({
        _id: first.body._id,
        title: 'Welcome',
        body_html: '<h1>Hello</h1>\n<p>The event <strong>starts</strong> soon.</p>',
        pinned: false,
        created_at: '2026-01-10T12:00:00.000Z',
        updated_at: '2026-01-10T12:00:00.000Z',
      });
      expect(list.body[0]).not.toHaveProperty('body');

      const edit = await admin.post(UPDATE, {
        _id: third.body._id,
        title: 'Wave 2!',
        body: 'More.',
        pinned: true,
      });
      expect(edit.body).toEqual({ acknowledge: true, message: 'Announcement updated.' });
      const afterEdit = await t.visitor().get(LIST);
      expect(afterEdit.body.map((a: { title: string }) => a.title)).toEqual(['Wave 2!', 'Rules', 'Welcome']);

      expect((await admin.post(DELETE, { _id: second.body._id })).body).toEqual({
        acknowledge: true,
        message: 'Announcement deleted.',
      });
      const adminList = await admin.get(ADMIN_LIST);
      expect(adminList.body.map((a: { title: string; body: string }) => [a.title, a.body])).toEqual([
        ['Wave 2!', 'More.'],
        ['Welcome', '# Hello\n\nThe event **starts** soon.'],
      ]);

      // Every change reached the live stream; only a new one without `change` (that is the toast).
      // A deleted announcement's own events left the log with it, and its deletion names no title
      // (issue 29: nothing replays what was deleted).
      expect((await liveEvents()).map((e) => JSON.parse(e.data))).toEqual([
        { _id: first.body._id, title: 'Welcome' },
        { _id: third.body._id, title: 'Wave 2' },
        { _id: third.body._id, title: 'Wave 2!', change: 'updated' },
        { _id: second.body._id, title: '', change: 'deleted' },
      ]);
      const audit = await t.ctx.database.db
        .selectFrom('audit_log')
        .select(['action', 'admin_name'])
        .orderBy('id')
        .execute();
      expect(audit.filter((a) => a.action.startsWith('announcement.'))).toEqual([
        { action: 'announcement.create', admin_name: 'boss' },
        { action: 'announcement.create', admin_name: 'boss' },
        { action: 'announcement.create', admin_name: 'boss' },
        { action: 'announcement.update', admin_name: 'boss' },
        { action: 'announcement.delete', admin_name: 'boss' },
      ]);
    });

    it('serves the list with an ETag and answers 304 to a caller holding it', async () => {
      await admin.post(CREATE, { title: 'Hello', body: 'x' });
      const first = await t.visitor().get(LIST);
      const etag = String(first.headers.etag);
      expect(first.headers['cache-control']).toBe('no-cache');
      expect((await t.visitor().get(LIST, { 'if-none-match': etag })).status).toBe(304);
      await admin.post(CREATE, { title: 'Again', body: 'y' });
      const changed = await t.visitor().get(LIST, { 'if-none-match': etag });
      expect(changed.status).toBe(200);
      expect(changed.body).toHaveLength(2);
    });

    it('keeps nothing that runs out of the rendered body', async () => {
      const res = await admin.post(CREATE, {
        title: '<b>T</b>',
        body: '<script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n[x](javascript:alert(3))',
      });
      expect(res.status).toBe(200);
      const [a] = (await t.visitor().get(LIST)).body;
      expect(a.title).toBe('<b>T</b>');
      expect(a.body_html).not.toMatch(/<script|onerror|javascript:/i);
    });

    it('refuses visitors (401) and participants (403) on the admin calls, changing nothing', async () => {
      const player = await t.login('player');
      for (const client of [t.visitor(), player]) {
        const expected = client === player ? 403 : 401;
        expect((await client.post(CREATE, { title: 'x', body: 'y' })).status).toBe(expected);
        expect((await client.post(UPDATE, { _id: '1', title: 'x', body: 'y', pinned: false })).status).toBe(
          expected,
        );
        expect((await client.post(DELETE, { _id: '1' })).status).toBe(expected);
        expect((await client.get(ADMIN_LIST)).status).toBe(expected);
      }
      expect((await t.visitor().get(LIST)).body).toEqual([]);
    });

    it('answers 400 naming the field for bad input, and 404 for an unknown id', async () => {
      const bad = async (path: string, body: unknown) => {
        const res = await admin.post(path, body);
        expect(res.status).toBe(400);
        return res.body.message as string;
      };
      expect(await bad(CREATE, { body: 'x' })).toMatch(/title/i);
      expect(await bad(CREATE, { title: '   ', body: 'x' })).toMatch(/title/i);
      expect(await bad(CREATE, { title: 'x'.repeat(ANNOUNCEMENT_TITLE_MAX_LENGTH + 1), body: 'x' })).toMatch(
        /title.*120/i,
      );
      expect(await bad(CREATE, { title: 'x', body: '  ' })).toMatch(/body/i);
      expect(await bad(CREATE, { title: 'x', body: 'x'.repeat(ANNOUNCEMENT_BODY_MAX_LENGTH + 1) })).toMatch(
        /body/i,
      );
      expect(await bad(CREATE, { title: 'x', body: 'y', pinned: 'yes' })).toMatch(/pinned/i);
      expect(await bad(UPDATE, { _id: 'abc', title: 'x', body: 'y', pinned: false })).toMatch(/_id/);
      expect(await bad(UPDATE, { _id: '1', title: 'x', body: 'y' })).toMatch(/pinned/);
      expect(await bad(DELETE, {})).toMatch(/_id/);
      const missing = await admin.post(UPDATE, { _id: '999', title: 'x', body: 'y', pinned: false });
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ acknowledge: false, message: 'Announcement not found' });
      expect((await admin.post(DELETE, { _id: '999' })).status).toBe(404);
    });
  });
}
