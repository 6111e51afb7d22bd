import { CATEGORIES } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { DEMO_CHALLENGES, seedDemo } from './seed-demo.js';

for (const kind of testDatabaseKinds()) {
  describe(`demo seed on ${kind}`, () => {
    let t: TestApp;
    beforeEach(async () => {
      t = await buildTestApp(kind);
    });
    afterEach(async () => {
      await t.close();
    });

    it('loads one playable challenge per category with files, opens the site, and runs once', async () => {
      expect(await seedDemo(t.ctx)).toEqual({ created: DEMO_CHALLENGES.length });
      const player = await t.login('newcomer');
      const list = await player.get('/api/ctf/challenges');
      expect(list.status).toBe(200);
      expect(new Set(list.body.map((c: { category: string }) => c.category))).toEqual(new Set(CATEGORIES));
      const withFile = list.body.find((c: { hlinks: string[] }) => c.hlinks.length > 0);
      const download = await player.get(`/api/ctf/download/${encodeURIComponent(withFile.hlinks[0])}`);
      expect(download.status).toBe(200);
      expect(download.text.slice(0, 2)).toBe('PK');
      for (const demo of DEMO_CHALLENGES) {
        const c = list.body.find((x: { name: string }) => x.name === demo.name);
        const r = await player.post('/api/ctf/submit-flag', { flag: demo.flag, challenge_id: c._id });
        expect(r.body.message).toBe('Correct Flag!');
      }
      expect(await seedDemo(t.ctx)).toEqual({ created: 0 });
    });
  });
}
