import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postImport } from '../../../test/archive-upload.js';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { addFileRow, openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { makeZip } from '../../lib/zip.js';
import { readZipArchive } from '../challenge-archive/archive-reader.js';
import { flushSubmissionLog } from '../submission-log/submission-log.service.js';
import { NOT_OWNER } from './challenge-owners.js';

/**
 * Challenges have owners (docs/decisions/0014-least-privilege.md): an author reads and changes
 * only the challenges it owns, and reads another's flag through no route that carries flags (the
 * editor's list, the challenge.yml export, the submission log, the audit log, the archive).
 */

const CREATE = '/api/admin/ctf/create_challenge';
const UPDATE = '/api/admin/ctf/update_challenge';
const FETCH = '/api/admin/ctf/fetch_challenges';
const ALICE_FLAG = 'flag{alice_owns_this_4b1d}';

const form = (name: string, flag: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: `<p>${name} text</p>`,
  category: 'General',
  difficulty: 'Easy',
  written_by: 'club',
  flag,
  files: [],
  ...extra,
});

for (const kind of testDatabaseKinds()) {
  describe(`challenge owners on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;
    let alice: TestClient;
    let bob: TestClient;
    let aliceChallenge: string;

    beforeEach(async () => {
      t = await buildTestApp(kind);
      admin = await t.login('boss', { admin: true });
      alice = await t.login('alice', { role: 'author' });
      bob = await t.login('bob', { role: 'author' });
      const res = await alice.post(CREATE, form('Alice Web', ALICE_FLAG));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      aliceChallenge = (await alice.get(FETCH)).body[0]._id;
    });
    afterEach(async () => {
      await t.close();
    });

    const names = async (client: TestClient) =>
      ((await client.get(FETCH)).body as { name: string }[]).map((c) => c.name);
    const stored = () =>
      t.ctx.database.db.selectFrom('challenges').select(['id', 'name', 'is_active', 'release_at']).execute();

    it('the creating author owns it; another author sees only its own; admins see all, with owners', async () => {
      expect((await bob.post(CREATE, form('Bob Crypto', 'flag{bob}'))).status).toBe(200);
      const mine = (await alice.get(FETCH)).body;
      expect(mine.map((c: { name: string }) => c.name)).toEqual(['Alice Web']);
      expect(mine[0].owners).toEqual([{ _id: String(alice.user!.id), username: 'alice' }]);
      expect(mine[0].flag).toBe(ALICE_FLAG);
      expect(await names(bob)).toEqual(['Bob Crypto']);
      expect((await bob.get(FETCH)).text).not.toContain(ALICE_FLAG);
      const all = (await admin.get(FETCH)).body as { name: string; owners: { username: string }[] }[];
      expect(all.map((c) => [c.name, c.owners.map((o) => o.username)]).sort()).toEqual([
        ['Alice Web', ['alice']],
        ['Bob Crypto', ['bob']],
      ]);
    });

    it("refuses another author's update, toggle, delete and schedule (403) and changes nothing", async () => {
      const before = await stored();
      const id = aliceChallenge;
      for (const [path, body] of [
        [UPDATE, { ...form('Taken', 'flag{mine}'), challenge_id: id }],
        ['/api/admin/ctf/toggle_status', { challenge_id: id }],
        ['/api/admin/ctf/delete_challenge', { challenge_id: id }],
        ['/api/admin/ctf/schedule_release', { challenge_ids: [id], release_at: '2030-01-01T00:00:00Z' }],
      ] as const) {
        const res = await bob.post(path, body);
        expect([res.status, res.body.message], path).toEqual([403, NOT_OWNER]);
      }
      expect(await stored()).toEqual(before);
      expect((await alice.post(UPDATE, { ...form('Alice Web', ALICE_FLAG), challenge_id: id })).status).toBe(
        200,
      );
    });

    it('only an admin sets owners (audited); the new owner then works on it', async () => {
      const res = await alice.post(UPDATE, {
        ...form('Alice Web', ALICE_FLAG),
        challenge_id: aliceChallenge,
        owner_ids: [String(bob.user!.id)],
      });
      expect(res.status).toBe(403);
      expect(
        (
          await admin.post(UPDATE, {
            ...form('Alice Web', ALICE_FLAG),
            challenge_id: aliceChallenge,
            owner_ids: [9999],
          })
        ).status,
      ).toBe(400);
      const ok = await admin.post(UPDATE, {
        ...form('Alice Web', ALICE_FLAG),
        challenge_id: aliceChallenge,
        owner_ids: [String(alice.user!.id), String(bob.user!.id)],
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(await names(bob)).toEqual(['Alice Web']);
      const audit = (await admin.get('/api/admin/audit?action=challenge.update')).body.rows[0];
      expect(audit.details.after.owners).toEqual([alice.user!.id, bob.user!.id].sort((a, b) => a - b));
      expect(audit.details.before.owners).toEqual([alice.user!.id]);
      // Created by an admin with owner_ids: those owners, not the admin.
      await admin.post(CREATE, form('Given', 'flag{given}', { owner_ids: [String(bob.user!.id)] }));
      expect(await names(bob)).toEqual(expect.arrayContaining(['Given']));
      expect(await names(alice)).not.toContain('Given');
    });

    it("never hands another author's flag out: export, submission log, audit log, archive", async () => {
      await bob.post(CREATE, form('Bob Crypto', 'flag{bob_9c2e}'));
      // The export: only Bob's own challenge.
      const exported = await t.app.inject({
        method: 'GET',
        url: '/api/admin/ctf/export',
        headers: { cookie: bob.cookie! },
      });
      expect(exported.statusCode).toBe(200);
      const entries = await readZipArchive(exported.rawPayload, 'export.zip');
      expect([...entries.keys()]).toEqual(['bob-crypto/challenge.yml']);
      expect([...entries.values()].map((b) => b.toString('utf8')).join('\n')).not.toContain(ALICE_FLAG);
      // The submission log: attempts at Alice's challenge are not Bob's to read, filtered or not.
      await openSite(t);
      const player = await t.login('pat');
      await player.post('/api/ctf/submit-flag', {
        challenge_id: aliceChallenge,
        flag: 'flag{alice_owns_this_4b1',
      });
      await player.post('/api/ctf/submit-flag', { challenge_id: aliceChallenge, flag: ALICE_FLAG });
      await flushSubmissionLog(t.ctx);
      const log = (q: string) => bob.get(`/api/admin/submissions${q}`);
      expect((await log('')).body.rows).toEqual([]);
      expect((await log('?challenge=Alice%20Web')).body.rows).toEqual([]);
      expect(
        (await bob.get('/api/admin/submissions.csv?challenge=Alice%20Web')).text.trim().split('\n'),
      ).toHaveLength(1);
      expect((await alice.get('/api/admin/submissions?challenge=Alice%20Web')).body.rows).toHaveLength(2);
      expect((await admin.get('/api/admin/submissions')).text).toContain('flag{alice_owns_this_4b1');
      // The audit log and the event archive: not an author's (403); flags never reach the log anyway.
      expect((await bob.get('/api/admin/audit')).status).toBe(403);
      expect((await admin.get('/api/admin/audit')).text).not.toContain(ALICE_FLAG);
      expect((await bob.get('/api/admin/archive.zip')).status).toBe(403);
      // The player's view of it is all Bob gets: the challenge page, without its flag.
      const detail = await bob.post('/api/ctf/challenge', { challenge_id: aliceChallenge });
      expect(detail.status).toBe(200);
      expect(detail.text).not.toContain(ALICE_FLAG);
    });

    it('an import makes the importer the owner and refuses to overwrite a challenge it does not own', async () => {
      const yml = (name: string, flag: string) =>
        makeZip([
          {
            name: 'c/challenge.yml',
            content: `name: ${name}\nauthor: x\ncategory: General\nvalue: 100\nflags:\n  - ${flag}\n`,
          },
        ]);
      for (const dryRun of [true, false]) {
        const refused = await postImport(bob, yml('Alice Web', 'flag{hijacked}'), dryRun);
        expect(refused.status).toBe(400);
        expect(refused.body.errors[0].message).toBe(NOT_OWNER);
      }
      expect((await alice.get(FETCH)).body[0].flag).toBe(ALICE_FLAG);
      const made = await postImport(bob, yml('Bob Import', 'flag{bob_import}'));
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const list = (await bob.get(FETCH)).body;
      expect(
        list.map((c: { name: string; owners: { username: string }[] }) => [c.name, c.owners[0]!.username]),
      ).toEqual([['Bob Import', 'bob']]);
    });

    it("keeps another author's files out of reach: list, delete, attach, download", async () => {
      await addFileRow(t, 'alice.zip');
      await addFileRow(t, 'spare.zip');
      const edit = (client: TestClient, files: string[]) =>
        client.post(UPDATE, { ...form('Alice Web', ALICE_FLAG), challenge_id: aliceChallenge, files });
      expect((await edit(alice, ['alice.zip'])).status).toBe(200);
      expect((await bob.get('/api/admin/ctf/get_uploads')).body).toEqual(['spare.zip']);
      expect((await alice.get('/api/admin/ctf/get_uploads')).body).toEqual(['alice.zip', 'spare.zip']);
      expect((await admin.get('/api/admin/ctf/get_uploads')).body).toEqual(['alice.zip', 'spare.zip']);
      expect((await bob.post('/api/admin/ctf/delete_file', { filename: 'alice.zip' })).status).toBe(403);
      const attach = await bob.post(CREATE, form('Bob Steal', 'flag{x}', { files: ['alice.zip'] }));
      expect(attach.status).toBe(403);
      // While the site is closed a player gets nothing; its owner reaches it (here: no bytes, 404).
      expect((await bob.get('/api/ctf/download/alice.zip')).status).toBe(403);
      expect((await alice.get('/api/ctf/download/alice.zip')).status).toBe(404);
      expect((await bob.post('/api/admin/ctf/delete_file', { filename: 'spare.zip' })).status).toBe(200);
    });

    it('existing challenges without owners are for admins only', async () => {
      await t.ctx.database.db.deleteFrom('challenge_owners').execute();
      expect(await names(alice)).toEqual([]);
      expect(
        (await alice.post('/api/admin/ctf/toggle_status', { challenge_id: aliceChallenge })).status,
      ).toBe(403);
      expect(await names(admin)).toEqual(['Alice Web']);
    });
  });
}
