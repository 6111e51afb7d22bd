import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge, openSite, type SeededChallenge } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { RATING_THANKS } from './ratings.service.js';

const RATE = '/api/ctf/rate-challenge';

for (const kind of testDatabaseKinds()) {
  describe(`POST /api/ctf/rate-challenge on ${kind}`, () => {
    let t: TestApp;
    let c: SeededChallenge;
    let ann: TestClient;
    beforeEach(async () => {
      t = await buildTestApp(kind);
      await openSite(t);
      c = await addChallenge(t);
      ann = await t.login('ann');
      await ann.post('/api/ctf/submit-flag', { flag: c.flag, challenge_id: c.id });
    });
    afterEach(async () => {
      await t.close();
    });

    /** The challenge page shows any answer containing 'Error' as a failure (docs/product.md §8). */
    function expectError(res: { status: number; body: { message: string } }, status: number) {
      expect(res.status).toBe(status);
      expect(res.body.message).toContain('Error');
    }

    it('records the rating of a solver and thanks them', async () => {
      const res = await ann.post(RATE, { challenge_id: String(c.id), rating: 4 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: RATING_THANKS });
      expect((await ann.get('/api/user/info')).body.user_rates).toEqual([String(c.id)]);
      expect((await t.visitor().get('/api/ctf/challenges')).body[0].rating).toBe(4);
    });

    it('accepts the rating as a numeric string (the rating page sends the select value)', async () => {
      const res = await ann.post(RATE, { challenge_id: c.id, rating: '5' });
      expect(res.body).toEqual({ message: RATING_THANKS });
      const rows = await t.ctx.database.db
        .selectFrom('ratings')
        .select(['user_id', 'challenge_id', 'rating'])
        .execute();
      expect(rows).toEqual([{ user_id: ann.user!.id, challenge_id: c.id, rating: 5 }]);
    });

    it('rates once per user: a second rating is a 409 Error', async () => {
      await ann.post(RATE, { challenge_id: c.id, rating: 4 });
      expectError(await ann.post(RATE, { challenge_id: c.id, rating: 1 }), 409);
      const rows = await t.ctx.database.db.selectFrom('ratings').select('rating').execute();
      expect(rows).toEqual([{ rating: 4 }]);
    });

    it('lets only a user who solved the challenge rate it (403 Error)', async () => {
      const bob = await t.login('bob');
      expectError(await bob.post(RATE, { challenge_id: c.id, rating: 5 }), 403);
      expect(await t.ctx.database.db.selectFrom('ratings').select('rating').execute()).toEqual([]);
    });

    it('needs a login (401 Error)', async () => {
      expectError(await t.visitor().post(RATE, { challenge_id: c.id, rating: 5 }), 401);
    });

    it('refuses ratings outside 1..5, fractions and non-numbers with a 400 Error', async () => {
      for (const rating of [0, 6, -1, 2.5, '2.5', 'abc', '', null, true, [3], '1e1']) {
        expectError(await ann.post(RATE, { challenge_id: c.id, rating }), 400);
      }
      expectError(await ann.post(RATE, { challenge_id: c.id }), 400);
      expectError(await ann.post(RATE, { rating: 3 }), 400);
      expectError(await ann.post(RATE, { challenge_id: 'x', rating: 3 }), 400);
      expectError(
        await ann.request({
          method: 'POST',
          url: RATE,
          payload: '{bad json',
          headers: { 'content-type': 'application/json' },
        }),
        400,
      );
      expect(await t.ctx.database.db.selectFrom('ratings').select('rating').execute()).toEqual([]);
    });

    it('answers an unknown challenge with a 404 Error', async () => {
      expectError(await ann.post(RATE, { challenge_id: c.id + 99, rating: 3 }), 404);
    });

    it('says Error even when the request is refused before the route (cross-site)', async () => {
      const res = await ann.post(RATE, { challenge_id: c.id, rating: 3 }, { origin: 'https://evil.example' });
      expectError(res, 403);
    });
  });
}
