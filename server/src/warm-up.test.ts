import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, TestClock, type TestApp } from '../test/build-test-app.js';
import { testDatabaseKinds } from '../test/databases.js';
import { twoProcesses } from '../test/two-processes.js';
import { listCache } from './modules/challenges/public-list.js';
import { setSiteActive } from './modules/site/site.service.js';
import { WARM_UP_PATHS, warmSharedAnswers } from './warm-up.js';

for (const kind of testDatabaseKinds()) {
  describe(`warming the shared answers before listening, on ${kind}`, () => {
    let t: TestApp | undefined;
    afterEach(async () => t?.close());

    it('makes a starting process keep the list before any player asks, each read through its route', async () => {
      // One process opened the site; the other starts with nothing kept, as a restarted server.
      const { a, b } = await twoProcesses(kind, new TestClock());
      await setSiteActive(a.ctx, true);
      expect(listCache(b.ctx).current).toBeNull();
      const made = await warmSharedAnswers(b.app);
      expect(made.map((m) => m.path)).toEqual([...WARM_UP_PATHS]);
      for (const m of made.filter((m) => m.path.startsWith('/api/')))
        expect(m, m.path).toMatchObject({ status: 200 });
      // The pages answer too (from the web build, or 404 without one): nothing is left unanswered.
      for (const m of made) expect(typeof m.status, m.path).toBe('number');
      expect(listCache(b.ctx).current).not.toBeNull();
    });

    it('warms a closed site all the same: a refusal is an answer', async () => {
      t = await buildTestApp(kind);
      const made = await warmSharedAnswers(t.app);
      expect(made).toHaveLength(WARM_UP_PATHS.length);
      for (const m of made) expect(typeof m.status, m.path).toBe('number');
    });
  });
}
