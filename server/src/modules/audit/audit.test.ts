import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge, addFileRow, makeTeam } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { REDACTED, changedFields, redactSecrets } from './audit.service.js';

const FORM = {
  name: 'Audit 101',
  description: '<p>x</p>',
  category: 'General',
  difficulty: 'Easy',
  written_by: 'club',
  flag: 'flag{never-in-the-log}',
  files: [] as string[],
};

interface Row {
  _id: string;
  time: string;
  admin: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
}

describe('redaction', () => {
  it('replaces every flag-like value, nested and in arrays', () => {
    expect(
      redactSecrets({ flag: 'f', after: { flags: [{ value: 'x' }], name: 'n' }, list: [{ base_flag: 'b' }] }),
    ).toEqual({ flag: REDACTED, after: { flags: REDACTED, name: 'n' }, list: [{ base_flag: REDACTED }] });
  });

  it('keeps only the changed fields of an edit', () => {
    expect(changedFields({ a: 1, b: [1], c: 'x' }, { a: 1, b: [2], c: 'y' })).toEqual({
      before: { b: [1], c: 'x' },
      after: { b: [2], c: 'y' },
    });
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`admin audit log on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;

    beforeEach(async () => {
      t = await buildTestApp(kind);
      admin = await t.login('boss', { admin: true });
    });
    afterEach(async () => {
      await t.close();
    });

    const audit = async (query = ''): Promise<{ rows: Row[]; next_cursor: string | null }> => {
      const res = await admin.get(`/api/admin/audit${query}`);
      expect(res.status).toBe(200);
      return res.body;
    };

    it('records each admin action with who, what and when, newest first, flags redacted', async () => {
      expect((await admin.post('/api/admin/ctf/create_challenge', FORM)).status).toBe(200);
      const id = Number((await admin.get('/api/admin/ctf/fetch_challenges')).body[0]._id);
      await admin.post('/api/admin/ctf/update_challenge', {
        ...FORM,
        challenge_id: String(id),
        difficulty: 'Hard',
        flag: 'flag{also-never}',
      });
      await admin.post('/api/admin/ctf/toggle_status', { challenge_id: String(id) });
      await admin.post('/api/admin/update_site_info', { activated: true });
      await admin.get('/api/admin/ctf/force_update');
      await addFileRow(t, 'task.zip');
      await admin.post('/api/admin/ctf/delete_file', { filename: 'task.zip' });
      const alice = await t.login('alice');
      const teamId = await makeTeam(t, 'Red', [alice.user!.id]);
      await admin.post('/api/admin/remove_team', { team_id: String(teamId) });
      await admin.post('/api/admin/remove_user', { user_id: String(alice.user!.id) });
      await t.login('deputy', { admin: true });
      await admin.post('/api/admin/remove_admin', { username: 'deputy' });
      await admin.post('/api/admin/ctf/delete_challenge', { challenge_id: String(id) });

      const { rows, next_cursor } = await audit();
      expect(next_cursor).toBeNull();
      expect(rows.map((r) => r.action)).toEqual([
        'challenge.delete',
        'admin.remove',
        'user.remove',
        'team.remove',
        'file.delete',
        'cache.force_update',
        'site.switch',
        'challenge.toggle',
        'challenge.update',
        'challenge.create',
      ]);
      expect(rows.every((r) => r.admin === 'boss' && r.time === t.clock.now().toISOString())).toBe(true);
      const byAction = new Map(rows.map((r) => [r.action, r]));
      expect(byAction.get('challenge.create')!.target).toBe(`challenge 'Audit 101' (#${id})`);
      expect(byAction.get('challenge.update')!.details).toEqual({
        before: { difficulty: 'Easy', points: 100, flags: REDACTED },
        after: { difficulty: 'Hard', points: 300, flags: REDACTED },
      });
      expect(byAction.get('challenge.toggle')!.details).toEqual({
        before: { is_active: true },
        after: { is_active: false },
      });
      expect(byAction.get('site.switch')!.details).toEqual({
        before: { activated: false },
        after: { activated: true },
      });
      expect(byAction.get('user.remove')!.target).toBe(`user 'alice' (#${alice.user!.id})`);
      const text = JSON.stringify(rows);
      expect(text).not.toContain('never-in-the-log');
      expect(text).not.toContain('also-never');
    });

    it('writes nothing when the action is refused (same transaction)', async () => {
      await addChallenge(t, { name: 'Taken' });
      const before = (await audit()).rows.length;
      expect((await admin.post('/api/admin/ctf/create_challenge', { ...FORM, name: 'taken' })).status).toBe(
        409,
      );
      expect((await admin.post('/api/admin/ctf/delete_challenge', { challenge_id: '9999' })).status).toBe(
        404,
      );
      expect((await audit()).rows.length).toBe(before);
    });

    it('filters by admin and action and pages with a cursor', async () => {
      const deputy = await t.login('deputy', { admin: true });
      for (let i = 0; i < 3; i += 1)
        await admin.post('/api/admin/update_site_info', { activated: i % 2 === 0 });
      await deputy.post('/api/admin/update_site_info', { activated: true });
      await deputy.get('/api/admin/ctf/force_update');

      expect((await audit('?admin=deputy')).rows.map((r) => r.action)).toEqual([
        'cache.force_update',
        'site.switch',
      ]);
      expect((await audit('?action=site.switch')).rows.map((r) => r.admin)).toEqual([
        'deputy',
        'boss',
        'boss',
        'boss',
      ]);
      const first = await audit('?limit=2');
      expect(first.rows).toHaveLength(2);
      expect(first.next_cursor).not.toBeNull();
      const second = await audit(`?limit=2&cursor=${first.next_cursor}`);
      const third = await audit(`?limit=2&cursor=${second.next_cursor}`);
      expect(third.next_cursor).toBeNull();
      const ids = [...first.rows, ...second.rows, ...third.rows].map((r) => Number(r._id));
      expect(ids).toHaveLength(5);
      expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    });

    it('is for admins only, validates its query and offers no edit or delete', async () => {
      expect((await t.visitor().get('/api/admin/audit')).status).toBe(401);
      expect((await (await t.login('alice')).get('/api/admin/audit')).status).toBe(403);
      const bad = await admin.get('/api/admin/audit?limit=abc');
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('limit');
      expect((await admin.get('/api/admin/audit?cursor=-1')).body.message).toContain('cursor');
      expect((await admin.get('/api/admin/audit?limit=201')).status).toBe(400);
      expect((await admin.post('/api/admin/audit', {})).status).toBe(404);
      expect((await admin.request({ method: 'DELETE', url: '/api/admin/audit' })).status).toBe(404);
    });
  });
}
