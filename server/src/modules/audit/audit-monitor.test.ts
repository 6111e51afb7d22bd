import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { REDACTED } from './audit.service.js';

/**
 * What a monitor reads of the audit log (docs/decisions/0014-least-privilege.md): the content of a
 * challenge players cannot see yet (unreleased or hidden) and every environment value are
 * redacted, names kept; an admin reads every entry whole.
 */

const RELEASE = '2026-01-10T13:00:00.000Z';
const SECRET_TEXT = 'Unreleased-description-7f3a';
const ENV_VALUE = 'api-key-value-91c4';

for (const kind of testDatabaseKinds()) {
  describe(`the audit log as a monitor reads it on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;
    let monitor: TestClient;
    let id: number;

    beforeEach(async () => {
      t = await buildTestApp(kind);
      admin = await t.login('boss', { admin: true });
      monitor = await t.login('watcher', { role: 'monitor' });
      ({ id } = await addChallenge(t, {
        name: 'Future Box',
        description: `<p>${SECRET_TEXT}</p>`,
        release_at: RELEASE,
        per_team: true,
        instance: { image: 'box:1', ports: [{ port: 1337, protocol: 'tcp' }], env: { API_KEY: ENV_VALUE } },
      }));
    });
    afterEach(async () => {
      await t.close();
    });

    const created = async (client: TestClient) => {
      const res = await client.get('/api/admin/audit?action=challenge.create');
      expect(res.status).toBe(200);
      return res.body.rows[0] as { target: string; details: { after: Record<string, unknown> } };
    };
    const envOf = (after: Record<string, unknown>) =>
      (JSON.parse(after.instance as string) as { env: Record<string, string> }).env;

    it('redacts an unreleased challenge and every environment value for a monitor, not for an admin', async () => {
      const seen = await created(monitor);
      expect(seen.target).toBe(`challenge 'Future Box' (#${id})`);
      expect(seen.details.after).toMatchObject({
        name: 'Future Box',
        category: 'General',
        description: REDACTED,
        release_at: REDACTED,
        instance: REDACTED,
      });
      expect(JSON.stringify(seen)).not.toContain(SECRET_TEXT);
      expect(JSON.stringify(seen)).not.toContain(ENV_VALUE);
      const whole = await created(admin);
      expect(whole.details.after.description).toContain(SECRET_TEXT);
      expect(envOf(whole.details.after)).toEqual({ API_KEY: ENV_VALUE });
    });

    it('shows a released challenge to a monitor, environment values still redacted, and hides it again when disabled', async () => {
      t.clock.set('2026-01-10T14:00:00Z');
      const seen = await created(monitor);
      expect(seen.details.after.description).toContain(SECRET_TEXT);
      expect(envOf(seen.details.after)).toEqual({ API_KEY: REDACTED });
      expect((await admin.post('/api/admin/ctf/toggle_status', { challenge_id: id })).status).toBe(200);
      expect(JSON.stringify(await created(monitor))).not.toContain(SECRET_TEXT);
      // The toggle's own entry names only what a player sees anyway.
      const toggled = (await monitor.get('/api/admin/audit?action=challenge.toggle')).body.rows[0];
      expect(toggled.details).toEqual({ before: { is_active: true }, after: { is_active: false } });
    });

    it('redacts a deleted challenge for a monitor (it cannot be seen any more)', async () => {
      t.clock.set('2026-01-10T14:00:00Z');
      expect((await admin.post('/api/admin/ctf/delete_challenge', { challenge_id: id })).status).toBe(200);
      const deleted = (await monitor.get('/api/admin/audit?action=challenge.delete')).body.rows[0];
      expect(JSON.stringify(deleted)).not.toContain(SECRET_TEXT);
      expect(JSON.stringify(deleted)).not.toContain(ENV_VALUE);
      expect(JSON.stringify((await admin.get('/api/admin/audit?action=challenge.delete')).body)).toContain(
        SECRET_TEXT,
      );
    });
  });
}
