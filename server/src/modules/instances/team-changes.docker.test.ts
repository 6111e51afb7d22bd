import { INSTANCE_MESSAGES } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge, makeTeam, openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { dockerEngine } from '../../../test/docker.js';
import {
  ENTRY_IMAGE,
  FLAG_SERVICE_IMAGE,
  instanceDefinition,
  instanceEnv,
  requireImage,
  setChallengeHost,
  until,
  untilRunning,
} from '../../../test/instance-fixtures.js';
import { driverOf } from './runtime.js';

/**
 * Team changes settle instances (real engine): a solo player who makes or joins a team loses the
 * solo instances (with the old flag) at once, a member who leaves or is removed takes the team's
 * instances down with the change (its addresses go with them), and the cap counts per team.
 */
const engine = await dockerEngine('instances and team changes');
if (engine) for (const image of [FLAG_SERVICE_IMAGE, ENTRY_IMAGE]) await requireImage(engine, image);

for (const kind of testDatabaseKinds()) {
  describe.skipIf(!engine)(`instances when teams change (${kind})`, () => {
    let t: TestApp;
    let admin: TestClient;
    let lead: TestClient;
    let carol: TestClient;

    beforeEach(async () => {
      t = await buildTestApp(kind, instanceEnv(engine!.host, '34000-34999'));
      admin = await t.login('boss', { admin: true });
      lead = await t.login('lead');
      carol = await t.login('carol');
      await makeTeam(t, 'Blue', [lead.user!.id]);
      await openSite(t);
      await setChallengeHost(admin);
      await admin.post('/api/admin/settings', { instancesPerTeam: 1 });
    });
    afterEach(async () => {
      for (const row of await t.ctx.database.db.selectFrom('instances').select('id').execute())
        await driverOf(t.ctx).remove(row.id);
      await t.close();
    });

    const box = (name: string) =>
      addChallenge(t, { name, flag: 'flag{team_box}', per_team: true, instance: instanceDefinition() });
    const containerIds = async () =>
      (await driverOf(t.ctx).list()).filter((c) => c.containerId !== null).map((c) => c.instanceId);
    const rows = () => t.ctx.database.db.selectFrom('instances').selectAll().execute();

    it('joining a team stops the solo instance; the team cap counts the team only', async () => {
      const a = await box('Alpha');
      const b = await box('Beta');
      expect((await lead.post('/api/ctf/instance/start', { challenge_id: a.id })).status).toBe(200);
      expect((await carol.post('/api/ctf/instance/start', { challenge_id: b.id })).status).toBe(200);
      await untilRunning(lead, a.id);
      await untilRunning(carol, b.id);
      expect(await containerIds()).toHaveLength(2);

      await carol.post('/api/team/request', { team_name: 'Blue' });
      const [req] = (await lead.get('/api/team/info')).body.join_requests;
      const joined = await lead.post('/api/team/add-member', { request_id: req._id, checksum: req.checksum });
      expect(joined.status, JSON.stringify(joined.body)).toBe(200);
      // At once: the solo row is gone from play (stopping, then removed), the team's stays.
      const after = await rows();
      expect(after.filter((r) => r.competitor_kind === 'user' && r.state !== 'stopping')).toEqual([]);
      await until('the solo container to go', async () => (await containerIds()).length === 1);
      expect((await carol.get(`/api/ctf/instance?challenge_id=${b.id}`)).status).toBe(404);
      // Carol now plays for Blue: the team's one instance is hers too, and the cap of 1 holds.
      expect((await carol.get(`/api/ctf/instance?challenge_id=${a.id}`)).status).toBe(200);
      const capped = await carol.post('/api/ctf/instance/start', { challenge_id: b.id });
      expect(capped.status).toBe(409);
      expect(capped.body.message).toBe(INSTANCE_MESSAGES.perTeamLimit(1));
      const audit = (await admin.get('/api/admin/audit?action=instance.stop')).body.rows as {
        details: string;
      }[];
      expect(JSON.stringify(audit)).toContain('a member left or joined');
    });

    it('leaving or being removed takes the team’s instances down; making a team ends the solo one', async () => {
      const a = await box('Alpha');
      const b = await box('Beta');
      // Carol alone starts one, then makes her own team: her solo instance goes.
      expect((await carol.post('/api/ctf/instance/start', { challenge_id: b.id })).status).toBe(200);
      await untilRunning(carol, b.id);
      expect((await carol.post('/api/team/create', { team_name: 'Green' })).status).toBe(200);
      await until('the solo container to go', async () => (await containerIds()).length === 0);
      await until('its row to go', async () => (await rows()).length === 0);

      // Carol leaves Green for Blue; Blue's instance goes when she is removed again.
      expect((await carol.post('/api/team/replace-leader', { team_data: { name: 'Green' } })).status).toBe(
        200,
      );
      expect((await carol.post('/api/team/request', { team_name: 'Blue' })).status).toBe(200);
      const [req] = (await lead.get('/api/team/info')).body.join_requests;
      const added = await lead.post('/api/team/add-member', { request_id: req._id, checksum: req.checksum });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect((await carol.post('/api/ctf/instance/start', { challenge_id: a.id })).status).toBe(200);
      await untilRunning(lead, a.id);
      const removed = await lead.post('/api/team/remove-member', { member_username: 'carol' });
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
      await until('the team container to go', async () => (await containerIds()).length === 0);
      await until('its row to go', async () => (await rows()).length === 0);
      expect((await lead.get(`/api/ctf/instance?challenge_id=${a.id}`)).status).toBe(404);
      expect((await carol.get(`/api/ctf/instance?challenge_id=${a.id}`)).status).toBe(404);
      // Blue starts again with a fresh instance.
      expect((await lead.post('/api/ctf/instance/start', { challenge_id: a.id })).status).toBe(200);
      await untilRunning(lead, a.id);
    });
  });
}
