import { adminApi, authApi, rolesFor, staffTableRoutes, type Endpoint, type StaffRole } from '@ctf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge, addFileRow, makeTeam, ownChallenge } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { makeZip } from '../../lib/zip.js';
import { createAnnouncement } from '../announcements/announcements.service.js';
import { giveAward } from '../awards/awards.service.js';
import { SYSTEM_ACTOR } from '../audit/audit.service.js';

/**
 * The authorization matrix of every admin endpoint, generated from the contract's ADMIN_ENDPOINTS
 * and the authorisation table (contract api/staff-roles.ts): a visitor gets 401 and a participant
 * 403 before anything happens; a monitor or an author the table leaves out gets 403 and changes
 * nothing; one it lets in gets through (a monitor changing nothing even then); an admin gets
 * through. A route registered under /api/admin/ that the list lacks fails the last tests, so it
 * cannot go untested.
 */

/** The admin check of the navbar guard has the same rule, though it lives in the auth contract. */
const GUARDED: readonly Endpoint[] = [...adminApi.ADMIN_ENDPOINTS, authApi.adminAuthenticated];

/** The admin API token: the one thing that opens the token endpoints (never a session). */
const SERVICE_TOKEN = 'authz-matrix-admin-api-token-0123456789abcdef';

const EMPTY_ZIP = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)]);
const BOUNDARY = 'authzBoundary';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const LOGO_BODY = Buffer.concat([
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
  ),
  PNG,
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
]);
const IMPORT_ZIP = makeZip([
  {
    name: 'authz/challenge.yml',
    content: 'name: Authz Import\nauthor: x\ncategory: General\nvalue: 50\nflags:\n  - flag{authz}\n',
  },
]);
const IMPORT_BODY = Buffer.concat([
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="import.zip"\r\nContent-Type: application/zip\r\n\r\n`,
  ),
  IMPORT_ZIP,
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
]);
const UPLOAD_BODY = Buffer.concat([
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="authz.zip"\r\nContent-Type: application/zip\r\n\r\n`,
  ),
  EMPTY_ZIP,
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
]);

interface Fixtures {
  perTeamChallengeId: number;
  victimId: number;
  deputyName: string;
  castUserId: number;
  teamId: number;
  challengeId: number;
  doomedChallengeId: number;
  fileName: string;
  announcementId: string;
  doomedAnnouncementId: string;
  /** A failed instance start (no container): an admin dismisses it without an engine. */
  failedInstanceId: number;
  /** An award the delete call removes. */
  doomedAwardId: string;
  playerId: number;
  /** An author that set_competing marks as competing. */
  contenderId: number;
}

/** A valid request for each POST endpoint, so a refusal can only come from the guard. */
function sampleRequest(
  path: string,
  f: Fixtures,
): { payload: unknown; headers?: Record<string, string>; adminStatus?: number } | undefined {
  const form = {
    name: 'Authz',
    description: '',
    category: 'General',
    difficulty: 'Simple',
    written_by: 'club',
    flag: 'flag{authz}',
    files: [],
  };
  const samples: Record<
    string,
    { payload: unknown; headers?: Record<string, string>; adminStatus?: number }
  > = {
    '/api/admin/remove_team': { payload: { team_id: String(f.teamId) } },
    '/api/admin/remove_user': { payload: { user_id: String(f.victimId) } },
    '/api/admin/remove_admin': { payload: { username: f.deputyName } },
    '/api/admin/promote_admin': { payload: { username: 'recruit' } },
    '/api/admin/set_role': { payload: { user_id: String(f.castUserId), role: 'author' } },
    '/api/admin/set_competing': { payload: { user_id: String(f.contenderId), competing: true } },
    '/api/admin/ctf/update_challenge': {
      payload: { ...form, name: 'Authz edit', challenge_id: String(f.challengeId) },
    },
    '/api/admin/ctf/create_challenge': { payload: form },
    '/api/admin/ctf/toggle_status': { payload: { challenge_id: String(f.challengeId) } },
    '/api/admin/ctf/delete_challenge': { payload: { challenge_id: String(f.doomedChallengeId) } },
    '/api/admin/ctf/schedule_release': {
      payload: { challenge_ids: [String(f.challengeId)], release_at: null },
    },
    '/api/admin/ctf/upload': {
      payload: UPLOAD_BODY,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    },
    '/api/admin/ctf/delete_file': { payload: { filename: f.fileName } },
    '/api/admin/ctf/reveal_team_flag': {
      payload: { challenge_id: String(f.perTeamChallengeId), competitor: 'player' },
    },
    '/api/admin/ctf/import': {
      payload: IMPORT_BODY,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    },
    '/api/admin/update_site_info': { payload: { activated: true } },
    // The fixture has challenges: the admin's call is refused by the rule (409), not by the guard.
    '/api/admin/sample_challenges': { payload: {}, adminStatus: 409 },
    '/api/admin/scoreboard/freeze': { payload: { freeze_at: null } },
    '/api/admin/announcements/create': { payload: { title: 'Authz', body: 'Hello' } },
    '/api/admin/announcements/update': {
      payload: { _id: f.announcementId, title: 'Authz edit', body: 'Hello again', pinned: false },
    },
    '/api/admin/announcements/delete': { payload: { _id: f.doomedAnnouncementId } },
    '/api/admin/moderate': {
      payload: { target: 'user', name: 'leader', action: 'hide', reason: 'authorization matrix' },
    },
    '/api/admin/settings': { payload: { name: 'Authz CTF' } },
    '/api/admin/instances/stop': { payload: { instance_id: String(f.failedInstanceId) } },
    '/api/admin/awards': { payload: { user_id: String(f.playerId), points: 5, reason: 'authz' } },
    '/api/admin/awards/delete': { payload: { award_id: f.doomedAwardId } },
    // No writeup in the fixture: the admin's call reaches the rule (404), not the guard.
    '/api/admin/writeups/review': {
      payload: { writeup_id: '1', reviewed: true, published: true },
      adminStatus: 404,
    },
    '/api/admin/divisions': { payload: { divisions: [{ name: 'Open', emailDomains: [] }] } },
    // The fixture's player has no e-mail sign-in: the admin's call reaches the rule (404).
    '/api/admin/users/resend-confirmation': { payload: { user_id: String(f.playerId) }, adminStatus: 404 },
    '/api/admin/blocked-emails': { payload: { email: 'authz@uni.example', blocked: true } },
    '/api/admin/settings/logo': {
      payload: LOGO_BODY,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    },
  };
  return samples[path];
}

/** Reads every registered path out of Fastify's route tree (printRoutes without common prefixes). */
function registeredPaths(tree: string): Set<string> {
  const paths = new Set<string>();
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)(?:[└├]── )?(.+?) \(([A-Z, ]+)\)$/.exec(line.replace(/\s+$/, ''));
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const full = (depth === 0 ? '' : stack[depth - 1]!) + m[2]!;
    stack[depth] = full;
    paths.add(full);
  }
  return paths;
}

function call(client: TestClient, ep: Endpoint, sample: ReturnType<typeof sampleRequest>) {
  return ep.method === 'GET'
    ? client.get(ep.path)
    : client.post(ep.path, sample?.payload ?? {}, sample?.headers ?? {});
}

for (const kind of testDatabaseKinds()) {
  describe(`admin authorization on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;
    let player: TestClient;
    let staff: Record<Exclude<StaffRole, 'admin'>, TestClient>;
    let fixtures: Fixtures;

    beforeAll(async () => {
      t = await buildTestApp(kind, { ADMIN_API_TOKEN: SERVICE_TOKEN });
      admin = await t.login('boss', { admin: true });
      player = await t.login('player');
      const victim = await t.login('victim');
      await t.login('deputy', { admin: true });
      await t.login('recruit');
      const cast = await t.login('cast');
      staff = {
        monitor: await t.login('watcher', { role: 'monitor' }),
        author: await t.login('writer', { role: 'author' }),
      };
      const leader = await t.login('leader');
      const teamId = await makeTeam(t, 'Target', [leader.user!.id]);
      const challenge = await addChallenge(t, { name: 'Kept' });
      const doomed = await addChallenge(t, { name: 'Doomed' });
      // The author works on the challenges it owns (the others it reaches only as a player).
      for (const id of [challenge.id, doomed.id]) await ownChallenge(t, id, staff.author.user!.id);
      const contender = await t.login('contender', { role: 'author' });
      const perTeam = await addChallenge(t, { name: 'Per team', per_team: true });
      await addFileRow(t, 'doomed.zip');
      const announcement = await createAnnouncement(t.ctx, { title: 'Kept', body: 'x', pinned: false });
      const doomedAnnouncement = await createAnnouncement(t.ctx, {
        title: 'Doomed',
        body: 'x',
        pinned: false,
      });
      // Its challenge keeps an instance definition, so the janitor has no reason to remove the row.
      const boxed = await addChallenge(t, {
        name: 'Boxed',
        per_team: true,
        instance: { image: 'x:1', ports: [{ port: 1337, protocol: 'tcp' }] },
      });
      const failed = await t.ctx.database.db
        .insertInto('instances')
        .values({
          challenge_id: boxed.id,
          competitor_kind: 'team',
          competitor_id: teamId,
          started_by: leader.user!.id,
          state: 'failed',
          ports: '[]',
          error: "Image 'x' is not on the Docker engine",
          created_at: t.clock.now().getTime(),
          expires_at: t.clock.now().getTime() + 60_000,
          max_expires_at: t.clock.now().getTime() + 60_000,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const doomedAward = await giveAward(
        t.ctx,
        { user_id: player.user!.id, points: 1, reason: 'doomed' },
        SYSTEM_ACTOR,
      );
      fixtures = {
        doomedAwardId: doomedAward,
        playerId: player.user!.id,
        contenderId: contender.user!.id,
        failedInstanceId: failed.id,
        perTeamChallengeId: perTeam.id,
        victimId: victim.user!.id,
        deputyName: 'deputy',
        castUserId: cast.user!.id,
        teamId,
        challengeId: challenge.id,
        doomedChallengeId: doomed.id,
        fileName: 'doomed.zip',
        announcementId: announcement._id,
        doomedAnnouncementId: doomedAnnouncement._id,
      };
    });
    afterAll(async () => {
      await t.close();
    });

    /** What a refused call must not have changed. */
    async function snapshot() {
      const db = t.ctx.database.db;
      const [users, teams, challenges, files, settings, announcements, awards] = await Promise.all([
        db.selectFrom('users').select(['id', 'is_admin', 'role', 'team_id']).orderBy('id').execute(),
        db.selectFrom('teams').select(['id', 'name', 'member_count']).orderBy('id').execute(),
        db.selectFrom('challenges').select(['id', 'name', 'is_active']).orderBy('id').execute(),
        db.selectFrom('files').select(['id', 'name']).orderBy('id').execute(),
        db.selectFrom('settings').select(['key', 'value']).orderBy('key').execute(),
        db.selectFrom('announcements').select(['id', 'title', 'pinned']).orderBy('id').execute(),
        db.selectFrom('awards').select(['id', 'points']).orderBy('id').execute(),
      ]);
      return { users, teams, challenges, files, settings, announcements, awards };
    }

    for (const ep of GUARDED) {
      const roles = rolesFor(ep) ?? [];
      const lets = (['monitor', 'author'] as const).filter((r) => roles.includes(r));
      const refuses = (['monitor', 'author'] as const).filter((r) => !roles.includes(r));
      it(`${ep.method} ${ep.path}: visitor 401, participant 403, ${refuses.join(' and ') || 'no staff'} 403, ${['admin', ...lets].join(' and ')} allowed`, async () => {
        const sample = sampleRequest(ep.path, fixtures);
        if (ep.method === 'POST')
          expect(sample, `add a sample body for ${ep.path} to this test`).toBeDefined();
        const before = await snapshot();
        const refused = (res: { body: unknown }) => {
          if (ep.path !== authApi.adminAuthenticated.path)
            expect(res.body).toMatchObject({ acknowledge: false });
        };

        const asVisitor = await call(t.visitor(), ep, sample);
        expect(asVisitor.status).toBe(401);
        refused(asVisitor);
        const asPlayer = await call(player, ep, sample);
        expect(asPlayer.status).toBe(403);
        refused(asPlayer);
        for (const role of refuses) {
          const res = await call(staff[role], ep, sample);
          expect(res.status, `${role}: ${JSON.stringify(res.body)}`).toBe(403);
          refused(res);
        }
        expect(await snapshot()).toEqual(before);

        const expected = sample?.adminStatus ?? 200;
        for (const role of lets) {
          const res = await call(staff[role], ep, sample);
          expect(res.status, `${role}: ${JSON.stringify(res.body)}`).toBe(expected);
          // A monitor only reads, even where the table lets it in.
          if (role === 'monitor') expect(await snapshot()).toEqual(before);
        }

        const asAdmin = await call(admin, ep, sample);
        expect(asAdmin.status, JSON.stringify(asAdmin.body)).not.toBe(401);
        expect(asAdmin.status, JSON.stringify(asAdmin.body)).not.toBe(403);
        // After an author's write the same body may no longer apply (a deleted row, a taken name).
        if (ep.method === 'GET' || !lets.includes('author'))
          expect(asAdmin.status, JSON.stringify(asAdmin.body)).toBe(expected);
      });
    }

    for (const ep of adminApi.TOKEN_ENDPOINTS) {
      it(`${ep.method} ${ep.path}: without the admin API token 401 for visitor, participant and admin; with it 200`, async () => {
        const url = `${ep.path}?challenge=${fixtures.perTeamChallengeId}&team=player`;
        for (const client of [t.visitor(), player, admin]) {
          const res = await client.get(url);
          expect(res.status).toBe(401);
          expect(res.body).toMatchObject({ acknowledge: false });
          expect((await client.get(url, { authorization: `Bearer ${SERVICE_TOKEN}-wrong` })).status).toBe(
            401,
          );
        }
        const ok = await t.visitor().get(url, { authorization: `Bearer ${SERVICE_TOKEN}` });
        expect(ok.status, ok.text).toBe(200);
      });
    }

    it('covers every route registered under /api/admin/', () => {
      const paths = registeredPaths(t.app.printRoutes({ commonPrefix: false }));
      // The parser must see the tree as it is, or the check below would pass vacuously.
      expect(paths).toContain('/api/admin/ctf/upload');
      expect(paths).toContain('/api/auth/github/callback');
      const admins = [...paths].filter((p) => p.startsWith('/api/admin'));
      const known = new Set([...GUARDED, ...adminApi.TOKEN_ENDPOINTS].map((e) => e.path));
      expect(admins.filter((p) => !known.has(p))).toEqual([]);
      expect(admins.length).toBe(known.size);
    });

    it('the authorisation table lists every admin route registered, and nothing else', () => {
      const key = (r: { method: string; url?: string; path?: string }) => `${r.method} ${r.url ?? r.path}`;
      const registered = t.routes.filter((r) => r.method !== 'HEAD');
      const admins = registered.filter((r) => r.access === 'admin');
      expect(admins.length).toBeGreaterThan(40);
      expect(admins.filter((r) => !rolesFor({ method: r.method as 'GET', path: r.url })).map(key)).toEqual(
        [],
      );
      const all = new Set(registered.map(key));
      expect(staffTableRoutes().filter((r) => !all.has(key(r)))).toEqual([]);
      // Every route of the table is walked above, so every role is tried on each.
      const walked = new Set(GUARDED.map(key));
      expect(staffTableRoutes().filter((r) => !walked.has(key(r)))).toEqual([]);
      // Whatever the table opens to a monitor only reads.
      const monitorWrites = staffTableRoutes().filter(
        (r) =>
          rolesFor(r)!.includes('monitor') && (r.method !== 'GET' || r.path === adminApi.forceUpdate.path),
      );
      expect(monitorWrites).toEqual([]);
    });
  });
}
