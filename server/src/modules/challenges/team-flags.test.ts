import { MESSAGES } from '@ctf/contract';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge, openSite, setTeam } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { startedEvent, type StartedEvent } from '../../../test/fixtures.js';
import { flushSubmissionLog } from '../submission-log/submission-log.service.js';
import {
  TEAM_FLAG_BASE_MAX_LENGTH,
  ownerOfSuffix,
  teamFlag,
  teamFlagKey,
  teamFlagSuffixOf,
} from './team-flags.js';

describe('per-team flag shape', () => {
  const key = teamFlagKey('a-secret');
  it('puts 16 hex digits before the closing brace, or at the end of a base without one', () => {
    const team = teamFlag(key, 7, 'flag{base}', { kind: 'team', id: 3 });
    expect(team).toMatch(/^flag\{base_[0-9a-f]{16}\}$/);
    expect(teamFlag(key, 7, 'plain', { kind: 'team', id: 3 })).toMatch(/^plain_[0-9a-f]{16}$/);
    // One competitor, one challenge, one key: one flag; anything else changes it.
    expect(teamFlag(key, 7, 'flag{base}', { kind: 'team', id: 3 })).toBe(team);
    for (const other of [
      teamFlag(key, 7, 'flag{base}', { kind: 'user', id: 3 }),
      teamFlag(key, 7, 'flag{base}', { kind: 'team', id: 4 }),
      teamFlag(key, 8, 'flag{base}', { kind: 'team', id: 3 }),
      teamFlag(teamFlagKey('another-secret'), 7, 'flag{base}', { kind: 'team', id: 3 }),
    ])
      expect(other).not.toBe(team);
  });

  it('reads the suffix of a text shaped like one, and finds whose it is', () => {
    const competitors = [
      { kind: 'team' as const, id: 1, name: 'Red' },
      { kind: 'user' as const, id: 1, name: 'solo' },
    ];
    const solo = teamFlag(key, 2, 'flag{b}', competitors[1]!);
    const suffix = teamFlagSuffixOf('flag{b}', solo)!;
    expect(suffix).toMatch(/^[0-9a-f]{16}$/);
    expect(ownerOfSuffix(key, 2, suffix, competitors)?.name).toBe('solo');
    expect(ownerOfSuffix(key, 3, suffix, competitors)).toBeNull();
    for (const text of [
      'flag{b}',
      'flag{b_zzzzzzzzzzzzzzzz}',
      'flag{b_0123}',
      `x${solo}`,
      'flag{c_0123456789abcdef}',
    ])
      expect(teamFlagSuffixOf('flag{b}', text)).toBeNull();
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`per-team flags on ${kind}`, () => {
    const token = `service-token-${randomBytes(24).toString('hex')}`;
    let t: StartedEvent<'alice' | 'amy' | 'bob' | 'solo', 'boss', never, 'Red' | 'Blue'>;
    let admin: TestClient;
    let alice: TestClient;
    let amy: TestClient;
    let bob: TestClient;
    let solo: TestClient;

    beforeEach(async () => {
      t = await startedEvent({
        kind,
        env: { ADMIN_API_TOKEN: token },
        admins: ['boss'],
        users: ['alice', 'amy', 'bob', 'solo'],
        teams: { Red: ['alice', 'amy'], Blue: ['bob'] },
      });
      admin = t.admin;
      ({ alice, amy, bob, solo } = t.users);
    });
    afterEach(async () => {
      await t.close();
    });

    const submit = (client: TestClient, id: number, flag: string) =>
      client.post('/api/ctf/submit-flag', { challenge_id: id, flag });
    const reveal = async (challengeId: number, competitor: string) => {
      const res = await admin.post('/api/admin/ctf/reveal_team_flag', {
        challenge_id: String(challengeId),
        competitor,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.flag as string;
    };
    const perTeam = (extra: Record<string, unknown> = {}) =>
      addChallenge(t, { name: 'Per team', flag: 'flag{per_team_base}', per_team: true, ...extra });

    it("accepts each competitor's own flag only, for every member of a team; the base is nobody's", async () => {
      const c = await perTeam();
      const red = await reveal(c.id, 'Red');
      const blue = await reveal(c.id, 'Blue');
      const mine = await reveal(c.id, 'solo');
      expect(red).toMatch(/^flag\{per_team_base_[0-9a-f]{16}\}$/);
      expect(new Set([red, blue, mine]).size).toBe(3);
      // A member's name means its team.
      expect(await reveal(c.id, 'amy')).toBe(red);

      expect((await submit(alice, c.id, 'flag{per_team_base}')).body.message).toBe(MESSAGES.incorrectFlag);
      expect((await submit(alice, c.id, blue)).body.message).toBe(MESSAGES.incorrectFlag);
      expect((await submit(solo, c.id, red)).body.message).toBe(MESSAGES.incorrectFlag);
      expect((await submit(bob, c.id, ` ${blue} `)).body.message).toBe(MESSAGES.correctFlag);
      expect((await submit(amy, c.id, red)).body.message).toBe(MESSAGES.correctFlag);
      expect((await submit(solo, c.id, mine)).body.message).toBe(MESSAGES.correctFlag);
      // Alice's own flag is her team's, the one Amy sent.
      expect((await submit(alice, c.id, red)).body.message).not.toBe(MESSAGES.incorrectFlag);
    });

    it("records another competitor's flag as wrong and raises certain evidence naming both", async () => {
      const c = await perTeam();
      const plain = await addChallenge(t, { name: 'Plain' });
      const blue = await reveal(c.id, 'Blue');
      const red = await reveal(c.id, 'Red');
      expect((await submit(alice, c.id, blue)).body.message).toBe(MESSAGES.incorrectFlag);
      // Sent to another challenge, it is evidence too.
      expect((await submit(solo, plain.id, red)).body.message).toBe(MESSAGES.incorrectFlag);
      // A guess shaped like one is nobody's: no signal.
      await submit(bob, c.id, 'flag{per_team_base_0123456789abcdef}');
      await flushSubmissionLog(t.ctx);

      const log = await admin.get('/api/admin/submissions?result=wrong');
      const rows = log.body.rows as { _id: string; username: string; submitted: string }[];
      const aliceRow = rows.find((r) => r.username === 'alice')!;
      expect(aliceRow.submitted).toBe(blue);

      const signals = (await admin.get('/api/admin/signals')).body as {
        kind: string;
        summary: string;
        competitors: string[];
        submission_ids: string[];
      }[];
      const certain = signals.filter((s) => s.kind === 'other_team_flag');
      expect(certain).toHaveLength(2);
      const byAlice = certain.find((s) => s.submission_ids[0] === aliceRow._id)!;
      expect(byAlice.competitors).toEqual(['Red', 'Blue']);
      expect(byAlice.summary).toBe(
        "alice (Red) sent the per-team flag of 'Per team' that belongs to Blue to 'Per team': certain, that flag is derived for Blue alone",
      );
      const bySolo = certain.find((s) => s.competitors[0] === 'solo')!;
      expect(bySolo.competitors).toEqual(['solo', 'Red']);
      expect(bySolo.summary).toContain("sent the per-team flag of 'Per team' that belongs to Red to 'Plain'");
      expect(signals.filter((s) => s.kind === 'other_flag')).toEqual([]);
    });

    it('a user who changes team has the new team’s flag; its old one is then another’s', async () => {
      const c = await perTeam();
      const blue = await reveal(c.id, 'Blue');
      const red = await reveal(c.id, 'Red');
      await setTeam(t, alice.user!.id, null);
      const own = await reveal(c.id, 'alice');
      expect(own).not.toBe(red);
      expect((await submit(alice, c.id, red)).body.message).toBe(MESSAGES.incorrectFlag);
      await setTeam(
        t,
        alice.user!.id,
        (
          await t.ctx.database.db
            .selectFrom('teams')
            .select('id')
            .where('name', '=', 'Blue')
            .executeTakeFirstOrThrow()
        ).id,
      );
      expect((await submit(alice, c.id, blue)).body.message).toBe(MESSAGES.correctFlag);
    });

    it('is an option of the challenge: checked on save, listed to admins, audited without a flag', async () => {
      const form = {
        name: 'Option',
        category: 'General',
        difficulty: 'Easy',
        written_by: 'x',
        flag: 'flag{option}',
      };
      const create = async (body: Record<string, unknown>) =>
        admin.post('/api/admin/ctf/create_challenge', { ...form, ...body });
      for (const [body, field] of [
        [{ per_team: true, flags: [{ type: 'regex', content: 'flag\\{.*\\}' }] }, 'flags'],
        [
          {
            per_team: true,
            flags: [
              { type: 'static', content: 'flag{a}' },
              { type: 'static', content: 'flag{b}' },
            ],
          },
          'flags',
        ],
        [{ per_team: true, flag: `flag{${'x'.repeat(TEAM_FLAG_BASE_MAX_LENGTH)}}` }, 'flags.0'],
        [{ per_team_on_page: true }, 'per_team_on_page'],
        [{ per_team: 'yes' }, 'per_team'],
      ] as const) {
        const res = await create(body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.message).toContain(field);
      }
      expect((await create({ per_team: true, per_team_on_page: true })).status).toBe(200);
      const list = (await admin.get('/api/admin/ctf/fetch_challenges')).body as {
        _id: string;
        name: string;
        per_team: boolean;
        per_team_on_page: boolean;
      }[];
      const made = list.find((c) => c.name === 'Option')!;
      expect(made).toMatchObject({ per_team: true, per_team_on_page: true });
      // An update that omits the options keeps them; one that turns per-team off turns the page off.
      const update = (body: Record<string, unknown>) =>
        admin.post('/api/admin/ctf/update_challenge', { ...form, challenge_id: made._id, ...body });
      expect((await update({})).status).toBe(200);
      expect((await admin.get('/api/admin/ctf/fetch_challenges')).body[0]).toMatchObject({ per_team: true });
      expect(
        (
          await update({
            flags: [
              { type: 'static', content: 'a' },
              { type: 'static', content: 'b' },
            ],
          })
        ).status,
      ).toBe(400);
      expect((await update({ per_team: false })).status).toBe(200);
      expect((await admin.get('/api/admin/ctf/fetch_challenges')).body[0]).toMatchObject({
        per_team: false,
        per_team_on_page: false,
      });
      // Other challenges list the options off.
      await addChallenge(t, { name: 'Ordinary' });
      const ordinary = (await admin.get('/api/admin/ctf/fetch_challenges')).body.find(
        (c: { name: string }) => c.name === 'Ordinary',
      );
      expect(ordinary).toMatchObject({ per_team: false, per_team_on_page: false });
    });

    it('shows an admin a competitor’s flag on demand, audited without the flag; refuses what cannot be', async () => {
      const c = await perTeam();
      const plain = await addChallenge(t, { name: 'Plain' });
      const flag = await reveal(c.id, 'Blue');
      const audit = await admin.get('/api/admin/audit?action=challenge.reveal_team_flag');
      expect(audit.body.rows).toHaveLength(1);
      expect(audit.body.rows[0]).toMatchObject({
        admin: 'boss',
        action: 'challenge.reveal_team_flag',
        target: `challenge 'Per team' (#${c.id})`,
        details: { competitor: 'Blue' },
      });
      expect(JSON.stringify(audit.body)).not.toContain(flag);
      for (const [body, status, text] of [
        [{ challenge_id: String(plain.id), competitor: 'Blue' }, 400, 'no per-team flags'],
        [{ challenge_id: '999999', competitor: 'Blue' }, 404, 'Challenge not found'],
        [{ challenge_id: String(c.id), competitor: 'Nobody' }, 404, "No team or user named 'Nobody'"],
        [{ challenge_id: String(c.id), competitor: '' }, 400, 'competitor'],
      ] as const) {
        const res = await admin.post('/api/admin/ctf/reveal_team_flag', body);
        expect(res.status).toBe(status);
        expect(res.body.message).toContain(text);
      }
      expect(
        (await bob.post('/api/admin/ctf/reveal_team_flag', { challenge_id: c.id, competitor: 'Blue' }))
          .status,
      ).toBe(403);
      expect(
        (
          await t
            .visitor()
            .post('/api/admin/ctf/reveal_team_flag', { challenge_id: c.id, competitor: 'Blue' })
        ).status,
      ).toBe(401);
    });

    it('serves an author’s service with the admin API token only: none 401, wrong 401, right 200, a session never', async () => {
      const c = await perTeam();
      const blue = await reveal(c.id, 'Blue');
      const url = `/api/admin/ctf/team-flag?challenge=${c.id}&team=Blue`;
      const visitor = t.visitor();
      const attempts: Record<string, string>[] = [
        {},
        { authorization: `Bearer ${token}x` },
        { authorization: `Bearer ${token.slice(0, -1)}` },
        { authorization: token },
        { authorization: `Basic ${token}` },
      ];
      for (const headers of attempts) {
        const res = await visitor.get(url, headers);
        expect(res.status, JSON.stringify(headers)).toBe(401);
        expect(res.text).not.toContain(blue);
      }
      // An admin's session is no token.
      expect((await admin.get(url)).status).toBe(401);
      const ok = await visitor.get(url, { authorization: `Bearer ${token}` });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ challenge: String(c.id), team: 'Blue', flag: blue });
      expect(ok.headers['cache-control']).toBe('no-store');
      // A member's name answers its team's flag; a bad query names its field, after the token.
      expect(
        (
          await visitor.get(`/api/admin/ctf/team-flag?challenge=${c.id}&team=bob`, {
            authorization: `Bearer ${token}`,
          })
        ).body,
      ).toMatchObject({ team: 'Blue', flag: blue });
      const bad = await visitor.get(`/api/admin/ctf/team-flag?challenge=x&team=Blue`, {
        authorization: `Bearer ${token}`,
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('challenge');
      expect((await visitor.get(`/api/admin/ctf/team-flag?challenge=x`)).status).toBe(401);
    });

    it('offers the competitor its own flag on the page only where the challenge is built to read it', async () => {
      const onPage = await perTeam({ name: 'On page', per_team_on_page: true });
      const hidden = await perTeam({ name: 'Hidden' });
      const plain = await addChallenge(t, { name: 'Plain' });
      const detail = async (client: TestClient, id: number) =>
        (await client.post('/api/ctf/challenge', { challenge_id: String(id) })).body;
      const red = await reveal(onPage.id, 'Red');
      expect((await detail(alice, onPage.id)).team_flag).toBe(red);
      expect((await detail(amy, onPage.id)).team_flag).toBe(red);
      expect((await detail(bob, onPage.id)).team_flag).toBe(await reveal(onPage.id, 'Blue'));
      expect(await detail(alice, hidden.id)).not.toHaveProperty('team_flag');
      expect(await detail(alice, plain.id)).not.toHaveProperty('team_flag');
      // Admins are no competitor.
      expect(await detail(admin, onPage.id)).not.toHaveProperty('team_flag');
      // The public list never carries one.
      const list = await t.visitor().get('/api/ctf/challenges');
      expect(list.text).not.toContain('per_team_base_');
      expect((await submit(alice, onPage.id, red)).body.message).toBe(MESSAGES.correctFlag);
    });
  });
}

describe('per-team flag service endpoint without a token configured', () => {
  it('refuses every call, whatever it sends', async () => {
    const t = await buildTestApp('sqlite');
    try {
      await openSite(t);
      const c = await addChallenge(t, { name: 'Off', flag: 'flag{off}', per_team: true });
      const admin = await t.login('boss', { admin: true });
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Bearer ' },
        { authorization: 'Bearer undefined' },
      ];
      for (const headers of attempts) {
        const res = await admin.get(`/api/admin/ctf/team-flag?challenge=${c.id}&team=boss`, headers);
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({
          acknowledge: false,
          message: expect.stringContaining('ADMIN_API_TOKEN'),
        });
      }
    } finally {
      await t.close();
    }
  });
});
