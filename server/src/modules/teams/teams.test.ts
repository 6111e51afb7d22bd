import { MESSAGES } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import {
  TEAM_TEXT,
  logins,
  makeTeam,
  seedChallenge,
  seedSolve,
  teamInfo,
} from '../../../test/team-fixtures.js';

const TEXT = TEAM_TEXT;

for (const kind of testDatabaseKinds()) {
  describe(`teams on ${kind}`, () => {
    let t: TestApp;
    let published: string[];
    beforeEach(async () => {
      t = await buildTestApp(kind);
      published = [];
      t.ctx.bus.subscribe((topic) => published.push(topic));
    });
    afterEach(async () => {
      await t.close();
    });

    describe('every call needs a session', () => {
      it.each([
        ['GET', '/api/team/info', undefined],
        ['GET', '/api/team/list', undefined],
        ['POST', '/api/team/create', { team_name: 'x' }],
        ['POST', '/api/team/request', { team_name: 'x' }],
        ['POST', '/api/team/update', { team_name: 'x' }],
        ['POST', '/api/team/replace-leader', { team_data: { name: 'x' } }],
        ['POST', '/api/team/remove-member', { member_username: 'x' }],
        ['POST', '/api/team/add-member', { request_id: '1', checksum: 'x' }],
      ])('%s %s answers 401 to a visitor', async (method, url, body) => {
        const v = t.visitor();
        const res = method === 'GET' ? await v.get(url) : await v.post(url, body);
        expect(res.status).toBe(401);
        expect(res.body.message).toBe(MESSAGES.unauthorized);
      });
    });

    describe('GET /api/team/info and /api/team/list', () => {
      it('answers null for a teamless user and lists teams with room by name', async () => {
        const alice = await t.login('alice');
        expect(await teamInfo(alice)).toBeNull();
        expect((await alice.get('/api/team/list')).body).toEqual([]);
        const bob = await t.login('bob');
        const carol = await t.login('carol');
        await makeTeam(bob, 'zeta');
        await makeTeam(carol, 'Alpha');
        expect((await alice.get('/api/team/list')).body).toEqual([
          { name: 'Alpha', memberCount: 1, spotsLeft: 3 },
          { name: 'zeta', memberCount: 1, spotsLeft: 3 },
        ]);
      });

      it('shows the team in the shape of docs/product.md §3; join requests with checksums to the leader only', async () => {
        const [lead, m1, asker] = [await t.login('lead'), await t.login('m1'), await t.login('asker')];
        await makeTeam(lead, 'Rooks', [m1]);
        await asker.post('/api/team/request', { team_name: 'rooks' });
        const info = await teamInfo(lead);
        expect(info).toMatchObject({
          name: 'Rooks',
          team_leader: 'lead',
          members: ['lead', 'm1'],
          memberCount: 2,
          spotsLeft: 2,
          completions: [],
        });
        expect(typeof info._id).toBe('string');
        expect(info.join_requests).toHaveLength(1);
        expect(info.join_requests[0]).toMatchObject({ sender_name: 'asker' });
        expect(info.join_requests[0].checksum.length).toBeGreaterThan(20);
        const asMember = await teamInfo(m1);
        expect(asMember.join_requests).toEqual([]);
        expect(asMember.members).toEqual(['lead', 'm1']);
        const user = (await m1.get('/api/user/info')).body;
        expect(user).toMatchObject({ team: 'Rooks', team_id: info._id, is_leader: false });
        expect((await lead.get('/api/user/info')).body.is_leader).toBe(true);
      });

      it('lists completions: first solve per challenge made while on the team', async () => {
        const [lead, m1] = [await t.login('lead'), await t.login('m1')];
        const easy = await seedChallenge(t, 'Easy one', 100);
        const hard = await seedChallenge(t, 'Hard one', 300);
        const solo = await seedChallenge(t, 'Solo one', 50);
        // m1 solved "Solo one" before joining: it stays theirs (docs/product.md §12).
        await seedSolve(t, m1.user!.id, solo, null, '2026-01-10T10:00:00.000Z');
        await makeTeam(lead, 'Rooks', [m1]);
        const teamId = Number((await teamInfo(lead))._id);
        await seedSolve(t, m1.user!.id, easy, teamId, '2026-01-10T12:05:00.000Z');
        await seedSolve(t, lead.user!.id, easy, teamId, '2026-01-10T12:06:00.000Z');
        await seedSolve(t, lead.user!.id, hard, teamId, '2026-01-10T12:07:00.000Z');
        const info = await teamInfo(m1);
        expect(info.completions).toEqual([
          {
            id: String(easy),
            memberName: 'm1',
            points: 100,
            name: 'Easy one',
            time: '2026-01-10T12:05:00.000Z',
          },
          {
            id: String(hard),
            memberName: 'lead',
            points: 300,
            name: 'Hard one',
            time: '2026-01-10T12:07:00.000Z',
          },
        ]);
      });

      it('leaves full teams out of the list', async () => {
        const users = await logins(t, ['a', 'b', 'c', 'd']);
        await makeTeam(users[0]!, 'Full', users.slice(1));
        const other = await t.login('e');
        expect((await other.get('/api/team/list')).body).toEqual([]);
        expect(await teamInfo(users[0]!)).toMatchObject({ memberCount: 4, spotsLeft: 0 });
      });
    });

    describe('POST /api/team/create', () => {
      it('creates the team with the caller as leader and drops their pending requests', async () => {
        const [other, alice] = [await t.login('other'), await t.login('alice')];
        await makeTeam(other, 'Others');
        await alice.post('/api/team/request', { team_name: 'Others' });
        const res = await alice.post('/api/team/create', { team_name: '  Ｃｏｏｌ Team ' });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ message: MESSAGES.teamCreated });
        expect(await teamInfo(alice)).toMatchObject({
          name: 'Cool Team',
          team_leader: 'alice',
          members: ['alice'],
          memberCount: 1,
        });
        expect((await teamInfo(other)).join_requests).toEqual([]);
        expect(await t.ctx.database.db.selectFrom('join_requests').select('id').execute()).toEqual([]);
        expect(published).toContain('teams');
      });

      it('refuses a taken name case-insensitively and after NFKC, and a second team', async () => {
        const [a, b] = [await t.login('a'), await t.login('b')];
        await makeTeam(a, 'Night Owls');
        for (const name of ['night owls', 'NIGHT OWLS', 'Ｎight Owls']) {
          const res = await b.post('/api/team/create', { team_name: name });
          expect(res.status).toBe(409);
          expect(res.body.message).toBe(TEXT.nameTaken);
        }
        const again = await a.post('/api/team/create', { team_name: 'Second' });
        expect(again.status).toBe(409);
        expect(again.body.message).toBe(TEXT.alreadyInTeam);
        // The refused creation left nothing behind.
        expect((await a.get('/api/team/list')).body.map((e: any) => e.name)).toEqual(['Night Owls']);
      });

      it.each([
        [{ team_name: '' }],
        [{ team_name: '   ' }],
        [{ team_name: 'x'.repeat(33) }],
        [{ team_name: 'bad\u0007name' }],
        [{ team_name: 'new\nline' }],
        [{ team_name: 42 }],
        [{ team_name: null }],
        [{}],
        [{ name: 'wrong field' }],
      ])('answers 400 to %j', async (body) => {
        const a = await t.login('a');
        const res = await a.post('/api/team/create', body);
        expect(res.status).toBe(400);
        expect(typeof res.body.message).toBe('string');
        expect(await teamInfo(a)).toBeNull();
      });

      it('accepts a name of exactly 32 characters', async () => {
        const a = await t.login('a');
        expect((await a.post('/api/team/create', { team_name: 'y'.repeat(32) })).status).toBe(200);
      });
    });

    describe('POST /api/team/request', () => {
      it('sends a request once', async () => {
        const [lead, bob] = [await t.login('lead'), await t.login('bob')];
        await makeTeam(lead, 'Rooks');
        const res = await bob.post('/api/team/request', { team_name: 'Rooks' });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ message: MESSAGES.requestSent });
        const again = await bob.post('/api/team/request', { team_name: 'ROOKS' });
        expect(again.status).toBe(409);
        expect(again.body.message).toBe(TEXT.alreadyRequested);
      });

      it('answers 404 for an unknown team and 409 when in a team or the team is full', async () => {
        const users = await logins(t, ['a', 'b', 'c', 'd', 'e']);
        const [a, b, c, d, e] = users as [TestClient, TestClient, TestClient, TestClient, TestClient];
        expect((await e.post('/api/team/request', { team_name: 'Nope' })).status).toBe(404);
        await makeTeam(a, 'Full', [b, c, d]);
        const full = await e.post('/api/team/request', { team_name: 'Full' });
        expect(full.status).toBe(409);
        expect(full.body.message).toBe(TEXT.teamFull);
        await makeTeam(e, 'Mine');
        const inTeam = await e.post('/api/team/request', { team_name: 'Full' });
        expect(inTeam.status).toBe(409);
        expect(inTeam.body.message).toBe(TEXT.alreadyInTeam);
      });

      it.each([[{}], [{ team_name: '' }], [{ team_name: 'x'.repeat(40) }], [{ team_name: ['a'] }]])(
        'answers 400 to %j',
        async (body) => {
          const a = await t.login('a');
          expect((await a.post('/api/team/request', body)).status).toBe(400);
        },
      );
    });

    describe('POST /api/team/update', () => {
      it('lets the leader rename; the message contains success', async () => {
        const [lead, m1] = [await t.login('lead'), await t.login('m1')];
        await makeTeam(lead, 'Rooks', [m1]);
        const res = await lead.post('/api/team/update', { team_name: 'Bishops' });
        expect(res.status).toBe(200);
        expect(res.body.message).toBe(MESSAGES.teamUpdated);
        expect(res.body.message).toContain('success');
        expect((await teamInfo(m1)).name).toBe('Bishops');
        expect((await m1.get('/api/user/info')).body.team).toBe('Bishops');
        // Changing only the case of the own name is allowed.
        expect((await lead.post('/api/team/update', { team_name: 'BISHOPS' })).status).toBe(200);
      });

      it('refuses non-leaders (403), a taken name (409) and bad names (400)', async () => {
        const [lead, m1, other, loner] = [
          await t.login('lead'),
          await t.login('m1'),
          await t.login('other'),
          await t.login('loner'),
        ];
        await makeTeam(lead, 'Rooks', [m1]);
        await makeTeam(other, 'Taken');
        const member = await m1.post('/api/team/update', { team_name: 'Mine' });
        expect(member.status).toBe(403);
        expect(member.body.message).toBe(TEXT.leaderOnly);
        expect((await loner.post('/api/team/update', { team_name: 'Mine' })).status).toBe(403);
        const taken = await lead.post('/api/team/update', { team_name: 'taken' });
        expect(taken.status).toBe(409);
        expect(taken.body.message).toBe(TEXT.nameTaken);
        for (const body of [
          { team_name: '' },
          { team_name: 'z'.repeat(33) },
          { team_name: 'a\u001fb' },
          {},
          { team_name: 1 },
        ]) {
          expect((await lead.post('/api/team/update', body)).status).toBe(400);
        }
        expect((await teamInfo(lead)).name).toBe('Rooks');
      });
    });
  });
}
