import { randomUUID } from 'node:crypto';
import {
  WRONG_FLAG_LIMIT,
  adminApi,
  authApi,
  challengesApi,
  leaderboardApi,
  siteApi,
  teamsApi,
  usersApi,
  type Endpoint,
} from '@ctf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type TestApp,
  type TestClient,
  type TestResponse,
} from '../../../test/build-test-app.js';
import { addChallenge, addFileRow, openSite, type SeededChallenge } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { toggleChallengeStatus } from './challenges.service.js';

const isEndpoint = (v: unknown): v is Endpoint =>
  typeof v === 'object' && v !== null && 'method' in v && 'path' in v && 'response' in v;

/** Every endpoint a visitor or participant can reach, and the admin ones they must be refused. */
const ENDPOINTS = [authApi, siteApi, usersApi, teamsApi, challengesApi, leaderboardApi, adminApi]
  .flatMap((ns) => Object.values(ns).filter(isEndpoint))
  // Logging out or signing in again would end the participant's session half-way: they run apart.
  .filter((e) => e.path !== authApi.logout.path && e.path !== authApi.localLogin.path);

/**
 * The canary test: challenges whose flags are unique strings, then every call a visitor or a
 * participant can make, in every state (site on and off, a challenge disabled, after solves, after
 * the wrong-flag limit), and no answer may contain any flag, in body or headers.
 */
for (const kind of testDatabaseKinds()) {
  describe(`no flag ever leaves through a non-admin call on ${kind}`, () => {
    let t: TestApp;
    let challenges: SeededChallenge[];
    const canaries: string[] = [];
    const seen: { where: string; status: number }[] = [];

    beforeAll(async () => {
      t = await buildTestApp(kind);
      await addFileRow(t, 'canary.zip');
      challenges = [];
      for (const difficulty of ['Simple', 'Medium', 'Extreme'] as const) {
        const flag = `canary{${randomUUID()}}`;
        canaries.push(flag);
        challenges.push(await addChallenge(t, { difficulty, flag, files: ['canary.zip'] }));
      }
    });
    afterAll(async () => {
      await t.close();
    });

    function check(where: string, res: TestResponse): void {
      seen.push({ where, status: res.status });
      const all = res.text + JSON.stringify(res.headers);
      for (const canary of canaries) {
        // The inner uuid alone must not leak either (a flag re-encoded or cut down).
        const core = canary.slice('canary{'.length, -1);
        if (all.includes(canary) || all.includes(core))
          throw new Error(`${where} leaked a flag (status ${res.status})`);
      }
    }

    async function driveAll(client: TestClient, label: string): Promise<void> {
      for (const c of challenges) {
        const body = {
          challenge_id: c.id,
          flag: 'not-the-flag',
          rating: 4,
          team_name: `Canary ${label}`,
          team_data: { name: `Canary ${label}` },
          member_username: 'nobody',
          request_id: 1,
          checksum: 'x',
          userCompletions: [],
          teamCompletions: [],
          username: `canary_${label}`,
          filename: 'canary.zip',
          activated: true,
          user_id: 1,
          team_id: 1,
        };
        for (const e of ENDPOINTS) {
          const res = e.method === 'GET' ? await client.get(e.path) : await client.post(e.path, body);
          check(`${label} ${e.method} ${e.path} (challenge ${c.id})`, res);
        }
        check(
          `${label} list with ETag`,
          await client.get(challengesApi.challengeList.path, { 'if-none-match': '*' }),
        );
        check(`${label} download`, await client.get(`${challengesApi.DOWNLOAD_PATH_PREFIX}canary.zip`));
      }
      if (!client.cookie) {
        check(
          `${label} local sign-in`,
          await client.post(authApi.localLogin.path, { username: `canary_${label}` }),
        );
      }
    }

    it('holds in every state', async () => {
      const ann = await t.login('ann');
      const bob = await t.login('bob');
      const visitor = t.visitor();

      // Site off (a new database starts so).
      await driveAll(visitor, 'visitor-off');
      await driveAll(ann, 'ann-off');

      await openSite(t);
      await driveAll(visitor, 'visitor-on');
      await driveAll(ann, 'ann-on');

      // ann solves two challenges with the real flags, bob hits the wrong-flag limit.
      for (const c of challenges.slice(0, 2)) {
        check(
          'ann solves',
          await ann.post(challengesApi.submitFlag.path, { flag: c.flag, challenge_id: c.id }),
        );
        check(
          'ann solves again',
          await ann.post(challengesApi.submitFlag.path, { flag: c.flag, challenge_id: c.id }),
        );
        check(
          'ann rates',
          await ann.post(challengesApi.rateChallenge.path, { challenge_id: c.id, rating: 5 }),
        );
      }
      const target = challenges[2]!;
      for (let i = 0; i <= WRONG_FLAG_LIMIT; i++) {
        check(
          'bob guesses',
          await bob.post(challengesApi.submitFlag.path, { flag: `guess-${i}`, challenge_id: target.id }),
        );
      }
      check(
        'bob limited',
        await bob.post(challengesApi.submitFlag.path, { flag: target.flag, challenge_id: target.id }),
      );
      await toggleChallengeStatus(t.ctx, challenges[1]!.id);

      await driveAll(visitor, 'visitor-after');
      await driveAll(ann, 'ann-after');
      await driveAll(bob, 'bob-after');

      await openSite(t, false);
      await driveAll(ann, 'ann-closed');

      check('logout', await ann.get(authApi.logout.path));

      // The check itself catches a leak.
      expect(() =>
        check('probe', { status: 200, body: null, text: `{"f":"${canaries[0]}"}`, headers: {} }),
      ).toThrow();
      // The walk really covered the calls, successes included.
      expect(seen.length).toBeGreaterThan(ENDPOINTS.length * challenges.length * 6);
      const ok = (path: string) => seen.some((s) => s.where.includes(path) && s.status === 200);
      for (const path of [
        '/api/ctf/challenges',
        '/api/ctf/challenge ',
        '/api/info/leaderboard',
        '/api/user/info',
      ]) {
        expect(ok(path), path).toBe(true);
      }
    });
  });
}
