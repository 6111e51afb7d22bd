import type { SolutionVisibility } from '@ctf/contract';
import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addFileRow, ownChallenge } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { startedEvent, type StartedEvent } from '../../../test/fixtures.js';
import { PDF, handIn, setWriteups } from '../../../test/writeup-upload.js';
import { publishedWriteups, readWriteupFile, solutionsForArchive } from '../writeups/writeups.service.js';

const DETAIL = '/api/ctf/challenge';
const UPDATE = '/api/admin/ctf/update_challenge';
const DURING = '2025-10-16T12:00:00Z';
const AFTER = '2025-10-25T12:00:00Z';

for (const kind of testDatabaseKinds()) {
  describe(`official solutions on ${kind}`, () => {
    let t: StartedEvent<'ann' | 'bob' | 'cat', 'boss', 'hidden' | 'solved' | 'ended', 'Red'>;
    const solution = (visibility: SolutionVisibility, files: string[] = []) => ({
      solution: { content: `# How\n\nSolved **${visibility}**<script>alert(1)</script>`, visibility, files },
    });
    beforeEach(async () => {
      t = await startedEvent({
        kind,
        admins: ['boss'],
        users: ['ann', 'bob', 'cat'],
        teams: { Red: ['ann', 'bob'] },
        challenges: {
          hidden: { difficulty: 'Easy', ...solution('hidden') },
          solved: { difficulty: 'Easy', ...solution('solved') },
          ended: { difficulty: 'Easy', ...solution('after_end') },
        },
        solves: [
          ['ann', 'solved'],
          ['ann', 'hidden'],
        ],
      });
      t.clock.set(DURING);
    });
    afterEach(async () => {
      await t.close();
    });
    const detail = async (who: keyof typeof t.users, c: 'hidden' | 'solved' | 'ended') =>
      (await t.users[who].post(DETAIL, { challenge_id: t.challenges[c].id })).body;

    it('shows solution_html per visibility, sanitised, and never to a player for hidden', async () => {
      const bob = await detail('bob', 'solved');
      expect(bob.solution_html).toContain('<strong>solved</strong>');
      expect(bob.solution_html).not.toContain('<script');
      expect(bob.solution_files).toEqual([]);
      expect('solution_html' in (await detail('cat', 'solved'))).toBe(false);
      expect('solution_html' in (await detail('ann', 'hidden'))).toBe(false);
      expect('solution_html' in (await detail('ann', 'ended'))).toBe(false);
      expect((await detail('boss', 'hidden')).solution_html).toContain('hidden');
      const author = await t.login('abe', { role: 'author' });
      // An author reads the solutions of the challenges it owns, and no other.
      expect((await author.get('/api/admin/ctf/fetch_challenges')).body).toEqual([]);
      expect(
        'solution_html' in (await author.post(DETAIL, { challenge_id: t.challenges.hidden.id })).body,
      ).toBe(false);
      await ownChallenge(t, t.challenges.hidden.id, author.user!.id);
      const list = (await author.get('/api/admin/ctf/fetch_challenges')).body;
      expect(list.map((c: { _id: string }) => c._id)).toEqual([String(t.challenges.hidden.id)]);
      expect(list[0].solution).toEqual({
        content: expect.stringContaining('# How'),
        visibility: 'hidden',
        files: [],
      });
      expect(
        (await author.post(DETAIL, { challenge_id: t.challenges.hidden.id })).body.solution_html,
      ).toContain('hidden');
      t.clock.set(AFTER);
      expect((await detail('cat', 'ended')).solution_html).toContain('after_end');
      expect('solution_html' in (await detail('cat', 'hidden'))).toBe(false);
    });

    it('edits, removes and refuses solutions, and its files follow the solution on download', async () => {
      const id = t.challenges.solved.id;
      const base = {
        challenge_id: id,
        name: t.challenges.solved.name,
        category: 'General',
        difficulty: 'Easy',
        written_by: 'T',
        flag: t.challenges.solved.flag,
      };
      let res = await t.admin.post(UPDATE, { ...base, solution: { content: 'x', visibility: 'public' } });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/visibility/);
      res = await t.admin.post(UPDATE, { ...base, ...solution('solved', ['missing.zip']) });
      expect([res.status, res.body.message]).toEqual([400, 'Unknown solution file: missing.zip']);
      await addFileRow(t, 'solve.zip');
      await mkdir(t.config.uploadDir, { recursive: true });
      await writeFile(path.join(t.config.uploadDir, 'solve.zip'), Buffer.from('PK\x05\x06'));
      expect((await t.admin.post(UPDATE, { ...base, ...solution('solved', ['solve.zip']) })).status).toBe(
        200,
      );
      expect((await detail('bob', 'solved')).solution_files).toEqual(['solve.zip']);
      expect((await t.users.bob.get('/api/ctf/download/solve.zip')).status).toBe(200);
      expect((await t.users.cat.get('/api/ctf/download/solve.zip')).status).toBe(404);
      // An update without `solution` leaves it; null removes it.
      expect((await t.admin.post(UPDATE, base)).status).toBe(200);
      expect((await detail('bob', 'solved')).solution_files).toEqual(['solve.zip']);
      expect((await t.admin.post(UPDATE, { ...base, solution: null })).status).toBe(200);
      expect('solution_html' in (await detail('bob', 'solved'))).toBe(false);
      expect((await t.users.bob.get('/api/ctf/download/solve.zip')).status).toBe(404);
    });

    it("gives the archive's read functions what an ended event may show", async () => {
      const archived = await solutionsForArchive(t.ctx);
      // Only 'after_end' solutions reach the public archive ('solved' is for solvers only).
      expect(archived.map((s) => [s.challengeId, s.visibility])).toEqual([
        [t.challenges.ended.id, 'after_end'],
      ]);
      expect(archived[0]!.html).toContain('<h1>How</h1>');
      await setWriteups(t.admin, { open: true });
      const a = await handIn(t.users.ann, t.challenges.solved.id, {
        file: { name: 'red.pdf', content: PDF },
      });
      await handIn(t.users.ann, t.challenges.hidden.id, { url: 'https://example.org/h' });
      expect(await publishedWriteups(t.ctx)).toEqual([]);
      expect(await readWriteupFile(t.ctx, Number(a.body._id))).toBeNull();
      await t.admin.post('/api/admin/writeups/review', {
        writeup_id: a.body._id,
        reviewed: true,
        published: true,
      });
      expect(await publishedWriteups(t.ctx)).toEqual([
        {
          id: Number(a.body._id),
          challengeId: t.challenges.solved.id,
          competitorName: 'Red',
          file: { name: 'red.pdf', size: PDF.length, contentType: 'application/pdf' },
          submittedAt: DURING.replace('Z', '.000Z'),
        },
      ]);
      expect(await publishedWriteups(t.ctx, [t.challenges.hidden.id])).toEqual([]);
      const file = await readWriteupFile(t.ctx, Number(a.body._id));
      expect(file).toMatchObject({ name: 'red.pdf', contentType: 'application/pdf' });
      expect(file!.bytes.equals(PDF)).toBe(true);
    });
  });
}
