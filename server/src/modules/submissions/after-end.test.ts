import { MESSAGES } from '@ctf/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { addChallenge, openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';

/** The after-event setting, decided from the clock when a flag arrives (docs/product.md §15). */
for (const kind of testDatabaseKinds()) {
  describe(`flags after the end (${kind})`, () => {
    let t: TestApp;
    afterEach(async () => t?.close());

    async function event(afterEnd: 'open' | 'closed' | 'practice') {
      t = await buildTestApp(kind);
      const admin = await t.login('root', { admin: true });
      const player = await t.login('player');
      const challenge = await addChallenge(t, { name: 'Warm-up', flag: 'flag{warm}' });
      await openSite(t);
      const saved = await admin.post('/api/admin/settings', {
        eventStart: '2026-01-01T00:00:00Z',
        eventEnd: '2026-01-10T13:00:00Z',
        afterEnd,
      });
      expect(saved.status, saved.text).toBe(200);
      const submit = (flag = 'flag{warm}') =>
        player.post('/api/ctf/submit-flag', { challenge_id: String(challenge.id), flag });
      return { admin, player, challenge, submit };
    }

    it("'open' plays on after the end as today", async () => {
      const { submit } = await event('open');
      t.clock.set('2026-01-10T14:00:00Z');
      expect((await submit()).body.message).toBe(MESSAGES.correctFlag);
    });

    it("'closed' answers 403 'The event has ended.' once the end has passed, not before", async () => {
      const { submit, admin, challenge } = await event('closed');
      expect((await submit('flag{nope}')).body.message).toBe(MESSAGES.incorrectFlag);
      t.clock.set('2026-01-10T13:00:00Z');
      const late = await submit();
      expect(late.status).toBe(403);
      expect(late.body.message).toBe(MESSAGES.eventClosed);
      // Admins play as before.
      const own = await admin.post('/api/ctf/submit-flag', {
        challenge_id: String(challenge.id),
        flag: 'flag{warm}',
      });
      expect(own.body.message).toBe(MESSAGES.correctFlag);
    });

    it("'practice' records the solve apart: on the profile, never on the board or in the counts", async () => {
      const { submit, player } = await event('practice');
      const boardBefore = await t.visitor().get('/api/info/leaderboard');
      const listBefore = await t.visitor().get('/api/ctf/challenges');
      t.clock.set('2026-01-10T14:00:00Z');
      expect((await submit('flag{nope}')).body.message).toBe(MESSAGES.incorrectFlag);
      const res = await submit();
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Correct Flag! (practice: not scored)');
      expect((await submit()).status).toBe(409);
      expect((await t.visitor().get('/api/info/leaderboard')).text).toBe(boardBefore.text);
      expect((await t.visitor().get('/api/ctf/challenges')).text).toBe(listBefore.text);
      const me = await player.get('/api/user/info');
      expect(me.body.completions).toEqual([]);
      const practice = await player.get('/api/user/practice');
      expect(practice.status).toBe(200);
      expect(practice.body).toEqual([
        { id: expect.any(String), name: 'Warm-up', time: '2026-01-10T14:00:00.000Z' },
      ]);
      expect((await t.visitor().get('/api/user/practice')).status).toBe(401);
    });
  });
}
