import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BASICS, adminList, archive, postImport } from '../../../test/archive-upload.js';
import { buildTestApp, TEST_ORIGIN, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { readZipArchive } from './archive-reader.js';

for (const kind of testDatabaseKinds()) {
  describe(`challenge.yml solution key on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;
    beforeEach(async () => {
      t = await buildTestApp(kind);
      admin = await t.login('boss', { admin: true });
    });
    afterEach(async () => {
      await t.close();
    });

    it('imports a solution as text or {content, visibility}, exports it back, and refuses a bad one', async () => {
      const withMapping = `${BASICS}solution:\n  content: |\n    Say *hello*.\n  visibility: after_end\n`;
      let res = await postImport(admin, archive({ 'warmup/challenge.yml': withMapping }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      let [c] = await adminList(admin);
      expect(c!.solution).toEqual({ content: 'Say *hello*.\n', visibility: 'after_end', files: [] });

      const zip = (
        await t.app.inject({
          method: 'GET',
          url: '/api/admin/ctf/export',
          headers: { cookie: admin.cookie!, origin: TEST_ORIGIN },
        })
      ).rawPayload;
      const yml = (await readZipArchive(zip, 'export.zip')).get('warmup/challenge.yml')!.toString();
      expect(yml).toContain('solution:\n  content: |\n    Say *hello*.\n  visibility: after_end\n');

      // Text alone is a hidden solution; absent removes it on an update.
      res = await postImport(admin, archive({ 'warmup/challenge.yml': `${BASICS}solution: Just text\n` }));
      expect(res.status).toBe(200);
      [c] = await adminList(admin);
      expect(c!.solution).toEqual({ content: 'Just text', visibility: 'hidden', files: [] });
      res = await postImport(admin, archive({ 'warmup/challenge.yml': BASICS }));
      [c] = await adminList(admin);
      expect(c!.solution).toBeNull();

      for (const bad of [
        'solution:\n  content: x\n  visibility: public\n',
        'solution:\n  - a list\n',
        'solution:\n  visibility: solved\n',
        'solution:\n  content: x\n  files: [a.zip]\n',
      ]) {
        res = await postImport(admin, archive({ 'warmup/challenge.yml': `${BASICS}${bad}` }));
        expect(res.status, bad).toBe(400);
        expect(res.body.errors[0].message, bad).toMatch(/solution/);
      }
    });
  });
}
