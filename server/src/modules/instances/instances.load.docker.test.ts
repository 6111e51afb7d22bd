import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/build-test-app.js';
import { addChallenge, makeTeam, openSite } from '../../../test/compete.js';
import { dockerEngine } from '../../../test/docker.js';
import {
  ENTRY_IMAGE,
  FLAG_SERVICE_IMAGE,
  instanceDefinition,
  instanceEnv,
  readService,
  requireImage,
  setChallengeHost,
  untilRunning,
} from '../../../test/instance-fixtures.js';
import { teamFlag, teamFlagKey } from '../challenges/team-flags.js';
import { driverOf } from './runtime.js';

const engine = await dockerEngine('per-team instances');
// The image is built by scripts/docker/build-base-image.sh (.ci/run); with an engine it must be there.
if (engine) for (const image of [FLAG_SERVICE_IMAGE, ENTRY_IMAGE]) await requireImage(engine, image);
const TEAMS = 20;

describe.skipIf(!engine)('20 teams starting at once (real engine)', () => {
  it('all answer within 30 s, each with its own flag, on distinct ports', async () => {
    const t = await buildTestApp('sqlite', instanceEnv(engine!.host, '32000-32999'));
    try {
      const admin = await t.login('boss', { admin: true });
      await setChallengeHost(admin);
      const players = [];
      const teamIds: number[] = [];
      for (let i = 0; i < TEAMS; i++) {
        const p = await t.login(`player${i}`);
        teamIds.push(await makeTeam(t, `Team ${i}`, [p.user!.id]));
        players.push(p);
      }
      await openSite(t);
      const c = await addChallenge(t, {
        name: 'Crowded',
        flag: 'flag{crowd}',
        per_team: true,
        instance: instanceDefinition(),
      });

      const began = Date.now();
      const starts = await Promise.all(
        players.map((p) => p.post('/api/ctf/instance/start', { challenge_id: c.id })),
      );
      expect(starts.map((s) => s.status)).toEqual(players.map(() => 200));
      const states = await Promise.all(players.map((p) => untilRunning(p, c.id, 30_000)));
      const flags = await Promise.all(states.map((s) => readService('127.0.0.1', s.ports[0]!.port)));
      expect(Date.now() - began).toBeLessThan(30_000);

      expect(new Set(states.map((s) => s.ports[0]!.port)).size).toBe(TEAMS);
      const key = teamFlagKey(t.config.sessionSecret);
      teamIds.forEach((id, i) =>
        expect(flags[i]!.trim()).toBe(teamFlag(key, c.id, 'flag{crowd}', { kind: 'team', id })),
      );
    } finally {
      for (const row of await t.ctx.database.db.selectFrom('instances').select('id').execute())
        await driverOf(t.ctx).remove(row.id);
      await t.close();
    }
  }, 90_000);
});
