import { MESSAGES, adminApi, type ImportResult, type SetupStatus } from '@ctf/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { SAMPLES_REFUSED } from '../challenge-archive/archive.service.js';

/** The names of docs/sample-challenges (its challenge.yml files). */
const SAMPLE_NAMES = ['Caesar Salad', 'First Steps', 'Regex Club'];

for (const kind of testDatabaseKinds()) {
  describe(`set-up checklist: GET /api/admin/setup, POST /api/admin/sample_challenges (${kind})`, () => {
    let t: TestApp;
    afterEach(async () => t?.close());

    it('tells an admin what is configured: challenges, sign-in and its redirect URLs, webhook', async () => {
      t = await buildTestApp(kind, { GITHUB_CLIENT_ID: 'id', GITHUB_CLIENT_SECRET: 'secret' });
      const admin = await t.login('boss', { admin: true });
      const res = await admin.get<SetupStatus>(adminApi.getSetup.path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        challenges: 0,
        publicUrl: TEST_ORIGIN,
        login: { discord: false, github: true, local: false },
        redirectUrls: {
          discord: `${TEST_ORIGIN}/api/auth/discord/callback`,
          github: `${TEST_ORIGIN}/api/auth/github/callback`,
        },
        webhook: false,
      });
      expect((await t.visitor().get(adminApi.getSetup.path)).status).toBe(401);
      expect((await (await t.login('player')).get(adminApi.getSetup.path)).status).toBe(403);
    });

    it('adds the sample challenges to a site without any, then refuses', async () => {
      t = await buildTestApp(kind, { DISCORD_WEBHOOK_URL: 'https://discord.example/api/webhooks/1/x' });
      const admin = await t.login('boss', { admin: true });
      expect((await admin.get<SetupStatus>(adminApi.getSetup.path)).body.webhook).toBe(true);
      const res = await admin.post<ImportResult>(adminApi.addSampleChallenges.path, {});
      expect(res.status).toBe(200);
      expect(res.body.acknowledge).toBe(true);
      expect([...res.body.created].sort()).toEqual(SAMPLE_NAMES);
      expect(res.body.errors).toEqual([]);
      const listed = await admin.get<{ name: string }[]>(adminApi.fetchChallenges.path);
      expect(listed.body.map((c) => c.name).sort()).toEqual(SAMPLE_NAMES);
      expect((await admin.get<string[]>(adminApi.getUploads.path)).body).toEqual(['first-steps.zip']);
      expect((await admin.get<SetupStatus>(adminApi.getSetup.path)).body.challenges).toBe(3);

      const again = await admin.post(adminApi.addSampleChallenges.path, {});
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ acknowledge: false, message: SAMPLES_REFUSED, code: 'conflict' });
      expect((await admin.get<unknown[]>(adminApi.fetchChallenges.path)).body).toHaveLength(3);
    });

    it('refuses once any challenge exists, and refuses participants', async () => {
      t = await buildTestApp(kind);
      const admin = await t.login('boss', { admin: true });
      expect((await (await t.login('player')).post(adminApi.addSampleChallenges.path, {})).status).toBe(403);
      const created = await admin.post(adminApi.createChallenge.path, {
        name: 'Mine',
        description: 'x',
        category: 'General',
        difficulty: 'Easy',
        written_by: 'club',
        flag: 'flag{mine}',
        points: 100,
        files: [],
      });
      expect(created.status).toBe(200);
      const res = await admin.post(adminApi.addSampleChallenges.path, {});
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(SAMPLES_REFUSED);
      expect((await admin.get<unknown[]>(adminApi.fetchChallenges.path)).body).toHaveLength(1);
    });

    it('keeps the create lock of the event window: during it, nothing is created', async () => {
      t = await buildTestApp(kind, {
        EVENT_START: '2026-01-10T00:00:00Z',
        EVENT_END: '2026-01-17T00:00:00Z',
      });
      const admin = await t.login('boss', { admin: true });
      const res = await admin.post<ImportResult>(adminApi.addSampleChallenges.path, {});
      expect(res.status).toBe(400);
      expect(res.body.created).toEqual([]);
      expect(res.body.errors.length).toBeGreaterThan(0);
      // The message itself names the reason, as the checklist shows only the message.
      expect(res.body.message).toBe(adminApi.importRefusedText(res.body.errors));
      expect(res.body.message).toMatch(/^Nothing was imported: 3 errors\. /);
      expect(res.body.message).toContain(`first-steps/challenge.yml, line 2: ${MESSAGES.createDisabled}`);
      expect((await admin.get<unknown[]>(adminApi.fetchChallenges.path)).body).toHaveLength(0);

      // Allowed by the organisers, the samples come in inside the window.
      expect((await admin.post('/api/admin/settings', { allowCreateDuringEvent: true })).status).toBe(200);
      const allowed = await admin.post<ImportResult>(adminApi.addSampleChallenges.path, {});
      expect(allowed.status).toBe(200);
      expect([...allowed.body.created].sort()).toEqual(SAMPLE_NAMES);
    });
  });
}
