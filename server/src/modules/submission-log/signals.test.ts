import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../test/build-test-app.js';
import { addChallenge } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { startedEvent, type StartedEvent } from '../../../test/fixtures.js';
import { addressNetwork } from '../../lib/ip.js';
import { flushSubmissionLog } from './submission-log.service.js';

interface Signal {
  kind: string;
  summary: string;
  competitors: string[];
  submission_ids: string[];
}

describe('address networks', () => {
  it('keeps IPv4 whole, cuts IPv6 to /64 and reads IPv4-mapped addresses as IPv4', () => {
    expect(addressNetwork('203.0.113.9')).toBe('203.0.113.9');
    expect(addressNetwork('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressNetwork('2001:db8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(addressNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressNetwork('2001:0db8:0000:0001:ffff:ffff:ffff:ffff')).toBe('2001:db8:0:1::/64');
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`cheating signals on ${kind}`, () => {
    let t: StartedEvent<'alice' | 'bob', 'boss', never, 'Red'>;
    let admin: TestClient;
    let alice: TestClient;
    let bob: TestClient;

    beforeEach(async () => {
      t = await startedEvent({
        kind,
        env: { TRUST_PROXY: 'loopback' },
        admins: ['boss'],
        users: ['alice', 'bob'],
        teams: { Red: ['alice'] },
      });
      admin = t.admin;
      ({ alice, bob } = t.users);
    });
    afterEach(async () => {
      await t.close();
    });

    const from = (address: string) => ({ 'x-forwarded-for': address });
    const signals = async (): Promise<Signal[]> => {
      await flushSubmissionLog(t.ctx);
      const res = await admin.get('/api/admin/signals');
      expect(res.status).toBe(200);
      return res.body;
    };
    const ids = async (user: string, result: string) =>
      (
        await t.ctx.database.db
          .selectFrom('submissions')
          .select('id')
          .where('username', '=', user)
          .where('result', '=', result)
          .orderBy('id')
          .execute()
      ).map((r) => String(r.id));

    it('(a) two competitors solving one challenge minutes apart from one network; (b) one address, two competitors', async () => {
      const c = await addChallenge(t, { name: 'Shared' });
      await alice.post('/api/ctf/submit-flag', { challenge_id: c.id, flag: c.flag }, from('2001:db8:0:1::5'));
      t.clock.advance(2 * 60_000);
      await bob.post('/api/ctf/submit-flag', { challenge_id: c.id, flag: c.flag }, from('2001:db8:0:1::77'));
      const found = await signals();
      const a = found.find((s) => s.kind === 'same_address_solves')!;
      expect(a.competitors).toEqual(['Red', 'bob']);
      expect(a.submission_ids).toEqual([
        ...(await ids('alice', 'correct')),
        ...(await ids('bob', 'correct')),
      ]);
      expect(a.summary).toContain("'Shared' 2 min apart from 2001:db8:0:1::/64");
      const b = found.find((s) => s.kind === 'shared_address')!;
      expect(b.competitors).toEqual(['Red', 'bob']);
    });

    it('(a) stays silent past 5 minutes or across networks', async () => {
      const c = await addChallenge(t, { name: 'Apart' });
      await alice.post('/api/ctf/submit-flag', { challenge_id: c.id, flag: c.flag }, from('198.51.100.1'));
      t.clock.advance(6 * 60_000);
      await bob.post('/api/ctf/submit-flag', { challenge_id: c.id, flag: c.flag }, from('198.51.100.1'));
      const d = await addChallenge(t, { name: 'Elsewhere' });
      await alice.post('/api/ctf/submit-flag', { challenge_id: d.id, flag: d.flag }, from('198.51.100.1'));
      await bob.post('/api/ctf/submit-flag', { challenge_id: d.id, flag: d.flag }, from('198.51.100.2'));
      expect((await signals()).filter((s) => s.kind === 'same_address_solves')).toEqual([]);
    });

    it("(c) a wrong attempt that is another challenge's flag names it", async () => {
      const a = await addChallenge(t, { name: 'Target' });
      const b = await addChallenge(t, { name: 'Source' });
      await alice.post('/api/ctf/submit-flag', { challenge_id: a.id, flag: b.flag });
      const c = (await signals()).find((s) => s.kind === 'other_flag')!;
      expect(c.competitors).toEqual(['Red']);
      expect(c.summary).toBe("alice (Red) sent the flag of 'Source' to 'Target'");
      expect(c.submission_ids).toEqual(await ids('alice', 'wrong'));
    });

    it("(c) also for another challenge's pattern or case-insensitive flag, each pattern with its own flags", async () => {
      const target = await addChallenge(t, { name: 'Target' });
      await addChallenge(t, {
        name: 'Loud',
        flags: [{ type: 'regex', content: '(?i)flag\\{upper_[0-9]+\\}' }],
      });
      await addChallenge(t, {
        name: 'Quiet',
        flags: [{ type: 'regex', content: 'flag\\{lower_[a-z]+\\}' }],
      });
      await addChallenge(t, { name: 'Shout', flags: [{ type: 'case_insensitive', content: 'flag{Mixed}' }] });
      const send = (flag: string) => alice.post('/api/ctf/submit-flag', { challenge_id: target.id, flag });
      // Not anyone's flag: Quiet's pattern is case-sensitive (Loud's (?i) stays within Loud's).
      for (const flag of ['flag{wrong}', 'FLAG{LOWER_ABC}', 'flag{upper_x}']) await send(flag);
      expect((await signals()).filter((s) => s.kind === 'other_flag')).toEqual([]);
      await send('FLAG{Upper_42}');
      await send('flag{lower_abc}');
      await send('FLAG{MIXED}');
      const sent = (await signals())
        .filter((s) => s.kind === 'other_flag')
        .map((s) => s.summary)
        .sort();
      expect(sent).toEqual([
        "alice (Red) sent the flag of 'Loud' to 'Target'",
        "alice (Red) sent the flag of 'Quiet' to 'Target'",
        "alice (Red) sent the flag of 'Shout' to 'Target'",
      ]);
    });

    it('(d) many wrong attempts over many challenges in one minute', async () => {
      const challenges = [];
      for (let i = 0; i < 5; i++) challenges.push(await addChallenge(t, { name: `Burst ${i}` }));
      for (const c of challenges)
        for (let i = 0; i < 4; i++)
          await bob.post('/api/ctf/submit-flag', { challenge_id: c.id, flag: `x${i}` });
      const d = (await signals()).find((s) => s.kind === 'burst')!;
      expect(d.competitors).toEqual(['bob']);
      expect(d.submission_ids).toEqual(await ids('bob', 'wrong'));
      expect(d.submission_ids).toHaveLength(20);
    });

    it('is for admins only', async () => {
      expect((await t.visitor().get('/api/admin/signals')).status).toBe(401);
      expect((await alice.get('/api/admin/signals')).status).toBe(403);
      expect(await signals()).toEqual([]);
    });
  });
}
