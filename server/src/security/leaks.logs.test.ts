import { adminApi } from '@ctf/contract';
import { describe, expect, it } from 'vitest';
import { addChallenge } from '../../test/compete.js';
import { canary, canaryWorld } from '../../test/canary-world.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { flushSubmissionLog } from '../modules/submission-log/submission-log.service.js';

/**
 * The server's log lines, captured from its logger, carry no secret at all (leaks.test.ts plants
 * the canaries and checks the answers), whatever participants and admins do.
 */

for (const kind of testDatabaseKinds()) {
  describe(`log lines never carry a secret on ${kind}`, () => {
    const planted = canaryWorld(kind);
    const { secrets, flags, unsolved, wrongGuess } = planted;

    it('no log line carries a flag, a guess, a token or a secret, whatever participants and admins do', async () => {
      const { w, logs } = planted;
      const { t } = w;
      await w.member.post('/api/ctf/submit-flag', { challenge_id: w.ids.active, flag: wrongGuess });
      await w.member.post('/api/ctf/submit-flag', { challenge_id: w.ids.active, flag: flags.active });
      await w.member.post('/api/ctf/submit-flag', { challenge_id: 2_147_483_647, flag: wrongGuess });
      for (let i = 0; i < 12; i++)
        await w.asker.post('/api/ctf/submit-flag', {
          challenge_id: w.ids.active,
          flag: `${wrongGuess}-${i}`,
        });
      await w.leader.post('/api/team/add-member', { request_id: w.ids.request, checksum: `${w.checksum}x` });
      await w.leader.post('/api/team/add-member', { request_id: w.ids.request, checksum: w.checksum });
      // Per-team flags: sent by their own competitor and by another, read by an admin and a service.
      const perTeamBase = `flag{${canary('per-team-base')}}`;
      const perTeam = await addChallenge(t, { name: 'Per Team', flag: perTeamBase, per_team: true });
      const perTeamFlags: string[] = [];
      for (const competitor of ['Fuzz Team', 'Other Team']) {
        const res = await w.admin.post('/api/admin/ctf/reveal_team_flag', {
          challenge_id: perTeam.id,
          competitor,
        });
        perTeamFlags.push(res.body.flag);
      }
      const served = await t
        .visitor()
        .get(`/api/admin/ctf/team-flag?challenge=${perTeam.id}&team=Other%20Team`, {
          authorization: `Bearer ${secrets.adminApiToken}`,
        });
      expect(served.body.flag).toBe(perTeamFlags[1]);
      await t.visitor().get(`/api/admin/ctf/team-flag?challenge=${perTeam.id}&team=Other%20Team`, {
        authorization: `Bearer ${secrets.adminApiToken}x`,
      });
      await w.other.post('/api/ctf/submit-flag', { challenge_id: perTeam.id, flag: perTeamFlags[0] });
      await w.member.post('/api/ctf/submit-flag', { challenge_id: perTeam.id, flag: perTeamFlags[0] });
      await flushSubmissionLog(t.ctx);
      const newFlag = `flag{${canary('admin-typed')}}`;
      const admin = w.admin;
      await admin.post('/api/admin/ctf/create_challenge', {
        name: 'Logged?',
        category: 'General',
        difficulty: 'Easy',
        written_by: 'x',
        flag: newFlag,
      });
      await admin.post('/api/admin/ctf/update_challenge', {
        challenge_id: w.ids.inactive,
        name: 'Fuzz Inactive',
        category: 'General',
        difficulty: 'Hard',
        written_by: 'x',
        flag: newFlag,
      });
      for (const ep of adminApi.ADMIN_ENDPOINTS) if (ep.method === 'GET') await admin.get(ep.path);
      // Provider failures are logged (a warning with the reason): the capture works, and the reason carries no secret.
      const start = await t.app.inject({ method: 'GET', url: '/api/auth/github' });
      const state = start.cookies.find((x) => x.name === 'ctf_oauth_state')!.value;
      const verifier = (
        await t.ctx.database.db.selectFrom('oauth_states').select('code_verifier').executeTakeFirstOrThrow()
      ).code_verifier;
      await t.app.inject({
        method: 'GET',
        url: `/api/auth/github/callback?code=forged&state=${state}`,
        headers: { cookie: `ctf_oauth_state=${state}` },
      });

      const text = logs.lines.join('');
      expect(text).toContain('oauth code exchange failed');
      const tokens = [w.admin, w.leader, w.member, w.asker, w.other].map((c) =>
        c.cookie!.replace(/^ctf_session=/, ''),
      );
      for (const [what, secret] of Object.entries({
        ...secrets,
        ...flags,
        unsolved,
        wrongGuess,
        newFlag,
        perTeamBase,
        ...Object.fromEntries(perTeamFlags.map((f, i) => [`per-team flag ${i}`, f])),
        verifier,
        checksum: w.checksum,
        ...Object.fromEntries(tokens.map((tk, i) => [`token ${i}`, tk])),
      })) {
        expect(text.includes(secret), `the logs carry the ${what}`).toBe(false);
      }
    });
  });
}
