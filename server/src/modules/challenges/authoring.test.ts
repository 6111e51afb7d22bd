import { MESSAGES } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { releasedTogether } from '../../../test/barrier.js';
import { openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';

const CREATE = '/api/admin/ctf/create_challenge';
const UPDATE = '/api/admin/ctf/update_challenge';
const LIST = '/api/admin/ctf/fetch_challenges';
const SUBMIT = '/api/ctf/submit-flag';
const DETAIL = '/api/ctf/challenge';

const base = {
  name: 'Multi',
  description: '<p>x</p>',
  category: 'General',
  difficulty: 'Easy',
  written_by: 'Ada',
};

for (const kind of testDatabaseKinds()) {
  describe(`challenge authoring: flags and attempt limit on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;
    beforeEach(async () => {
      t = await buildTestApp(kind);
      await openSite(t);
      admin = await t.login('boss', { admin: true });
      // Outside the event window, so Create Challenge is allowed.
      t.clock.set('2024-01-01T00:00:00Z');
    });
    afterEach(async () => {
      await t.close();
    });

    async function create(body: Record<string, unknown>): Promise<string> {
      const res = await admin.post(CREATE, { ...base, ...body });
      expect(res.body).toMatchObject({ acknowledge: true });
      const list = (await admin.get(LIST)).body as { _id: string; name: string }[];
      return list.find((c) => c.name === (body.name ?? base.name))!._id;
    }

    it('accepts any of several flags of each type and lists them for admins only', async () => {
      const id = await create({
        flags: [
          { type: 'static', content: 'flag{Exact}' },
          { type: 'case_insensitive', content: 'flag{Loose}' },
          { type: 'regex', content: 'flag\\{[0-9]{3}\\}' },
        ],
      });
      const [c] = (await admin.get(LIST)).body;
      expect(c.flags).toEqual([
        { type: 'static', content: 'flag{Exact}' },
        { type: 'case_insensitive', content: 'flag{Loose}' },
        { type: 'regex', content: 'flag\\{[0-9]{3}\\}' },
      ]);
      expect(c.flag).toBe('flag{Exact}');
      const answers: string[] = [];
      for (const [who, flag] of [
        ['a1', 'flag{exact}'],
        ['a2', 'flag{Exact}'],
        ['a3', 'FLAG{LOOSE}'],
        ['a4', 'flag{123}'],
        ['a5', 'flag{1234}'],
      ] as const) {
        const res = await (await t.login(who)).post(SUBMIT, { flag, challenge_id: id });
        answers.push(res.body.message);
      }
      expect(answers).toEqual([
        MESSAGES.incorrectFlag,
        MESSAGES.correctFlag,
        MESSAGES.correctFlag,
        MESSAGES.correctFlag,
        MESSAGES.incorrectFlag,
      ]);
      const publicText = (await t.visitor().get('/api/ctf/challenges')).text;
      const detail = (await (await t.login('a9')).post(DETAIL, { challenge_id: id })).text;
      for (const text of [publicText, detail]) expect(text).not.toMatch(/Exact|Loose|\[0-9\]/);
    });

    it('keeps the old single flag as one static flag', async () => {
      await create({ flag: '  flag{old}  ' });
      const [c] = (await admin.get(LIST)).body;
      expect(c.flags).toEqual([{ type: 'static', content: 'flag{old}' }]);
    });

    it('refuses an invalid regex, a missing flag and a bad type with 400 naming the field', async () => {
      const bad = await admin.post(CREATE, { ...base, flags: [{ type: 'regex', content: '(a' }] });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/flags\.0.*not a valid regular expression/);
      const none = await admin.post(CREATE, { ...base, flags: [] });
      expect(none.status).toBe(400);
      expect(none.body.message).toMatch(/flags/);
      const type = await admin.post(CREATE, { ...base, flags: [{ type: 'glob', content: 'x' }] });
      expect(type.status).toBe(400);
      expect(type.body.message).toMatch(/flags\.0\.type/);
      expect((await admin.get(LIST)).body).toEqual([]);
    });

    it('answers 403 No attempts left after max_attempts wrong flags, even for the right one', async () => {
      const id = await create({ flag: 'flag{r}', max_attempts: 2 });
      const ann = await t.login('ann');
      expect((await ann.post(DETAIL, { challenge_id: id })).body.attempts_left).toBe(2);
      expect((await ann.post(SUBMIT, { flag: 'x', challenge_id: id })).body.message).toBe(
        MESSAGES.incorrectFlag,
      );
      expect((await ann.post(DETAIL, { challenge_id: id })).body.attempts_left).toBe(1);
      await ann.post(SUBMIT, { flag: 'y', challenge_id: id });
      const refused = await ann.post(SUBMIT, { flag: 'flag{r}', challenge_id: id });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(MESSAGES.noAttemptsLeft);
      expect((await ann.post(DETAIL, { challenge_id: id })).body.attempts_left).toBe(0);
      // Another user has their own attempts; a challenge without a limit answers null.
      const bob = await t.login('bob');
      expect((await bob.post(SUBMIT, { flag: 'flag{r}', challenge_id: id })).body.message).toBe(
        MESSAGES.correctFlag,
      );
      const free = await create({ name: 'Free', flag: 'f' });
      expect((await ann.post(DETAIL, { challenge_id: free })).body.attempts_left).toBeNull();
    });

    it('never lets parallel guesses go past the limit', async () => {
      const id = await create({ flag: 'flag{r}', max_attempts: 3 });
      const ann = await t.login('ann');
      const answers = await releasedTogether(
        Array.from({ length: 8 }, (_, i) => () => ann.post(SUBMIT, { flag: `wrong${i}`, challenge_id: id })),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
      expect(answers.filter((a) => a.status === 403)).toHaveLength(5);
      const rows = await t.ctx.database.db.selectFrom('challenge_attempts').select('used').execute();
      expect(rows).toEqual([{ used: 3 }]);
    });

    it('edits the flag list and the limit; an update that omits the limit keeps it', async () => {
      const id = await create({ flag: 'a', max_attempts: 5 });
      const res = await admin.post(UPDATE, {
        ...base,
        challenge_id: id,
        flags: [{ type: 'case_insensitive', content: 'B' }],
      });
      expect(res.body).toMatchObject({ acknowledge: true });
      let [c] = (await admin.get(LIST)).body;
      expect(c.flags).toEqual([{ type: 'case_insensitive', content: 'B' }]);
      expect(c.max_attempts).toBe(5);
      await admin.post(UPDATE, { ...base, challenge_id: id, flag: 'b', max_attempts: null });
      [c] = (await admin.get(LIST)).body;
      expect(c.max_attempts).toBeNull();
      expect((await (await t.login('ann')).post(SUBMIT, { flag: 'b', challenge_id: id })).body.message).toBe(
        MESSAGES.correctFlag,
      );
      const bad = await admin.post(UPDATE, { ...base, challenge_id: id, flag: 'b', max_attempts: 0 });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/max_attempts/);
    });
  });
}
