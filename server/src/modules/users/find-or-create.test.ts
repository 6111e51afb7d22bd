import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { findUserById } from './users.repo.js';
import { findOrCreateUser, type ProviderProfile } from './users.service.js';

// A sign-in's account: a new one is answered as the insert wrote it (not read again), so that row
// must be the stored one, column for column; a second sign-in finds the same account.
for (const kind of testDatabaseKinds()) {
  describe(`an account made at its first sign-in on ${kind}`, () => {
    let t: TestApp;
    beforeEach(async () => {
      t = await buildTestApp(kind);
    });
    afterEach(async () => {
      await t.close();
    });

    const profile: ProviderProfile = {
      provider: 'github',
      providerUserId: '4242',
      handle: 'Zoë the Hacker',
      avatarUrl: 'https://avatars.example.org/zoe.png',
      email: 'zoe@example.org',
    };

    it('is answered exactly as stored, and found again at the next sign-in', async () => {
      const created = await findOrCreateUser(t.ctx, profile);
      const stored = await findUserById(t.ctx.database.db, created.id);
      expect(stored).not.toBeNull();
      expect(created).toStrictEqual(stored);
      expect(created).toMatchObject({
        avatar_url: profile.avatarUrl,
        email: profile.email,
        role: 'player',
        is_admin: 0,
        team_id: null,
        team_joined_at: null,
        division_id: null,
      });
      expect(await findOrCreateUser(t.ctx, profile)).toStrictEqual(stored);
    });

    it('gives a handle another account holds a suffix (the insert retried), and answers the row stored', async () => {
      const first = await findOrCreateUser(t.ctx, {
        ...profile,
        providerUserId: '1',
        email: 'a@example.org',
      });
      const second = await findOrCreateUser(t.ctx, {
        ...profile,
        providerUserId: '2',
        email: 'b@example.org',
      });
      expect(second.username).not.toBe(first.username);
      expect(second).toStrictEqual(await findUserById(t.ctx.database.db, second.id));
    });
  });
}
