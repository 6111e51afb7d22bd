import { describe, expect, it } from 'vitest';
import { makeTeam, setTeam } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { scenario } from '../../../test/fixtures.js';

const COMPLETIONS = '/api/info/get-completions';
/** The same answer as a GET (what the web asks for). */
const OWN_COMPLETIONS = '/api/info/completions';
const names = (list: { name: string }[]) => list.map((c) => c.name).sort();

for (const kind of testDatabaseKinds()) {
  describe(`kept completions answers on ${kind}`, () => {
    it('a kept answer follows the solver, their team mates and a change of team at the next request', async () => {
      const t = await scenario({
        kind,
        users: ['ann', 'bob', 'cat'],
        challenges: { c1: 'Simple', c2: 'Easy', c3: 'Medium' },
      });
      const { ann, bob, cat } = t.users;
      const { c1, c2, c3 } = t.challenges;
      await makeTeam(t, 'Red', [ann.user!.id, bob.user!.id]);
      const read = async () => {
        const res = await ann.get(OWN_COMPLETIONS);
        expect(res.status).toBe(200);
        return res;
      };

      const empty = await read();
      expect(empty.body).toEqual({ userCompletions: [], teamCompletions: [] });
      // Kept: the same bytes again, under the same validator, which the GET revalidates.
      expect((await read()).headers.etag).toBe(empty.headers.etag);
      expect(empty.headers['cache-control']).toBe('private, no-cache');
      expect((await ann.get(OWN_COMPLETIONS, { 'if-none-match': String(empty.headers.etag) })).status).toBe(
        304,
      );

      await t.solve(bob, c1); // a team mate's solve
      expect((await ann.get(OWN_COMPLETIONS, { 'if-none-match': String(empty.headers.etag) })).status).toBe(
        200,
      );
      let now = (await read()).body;
      expect(names(now.userCompletions)).toEqual([]);
      expect(names(now.teamCompletions)).toEqual([c1.name]);

      await t.solve(ann, c2); // her own
      now = (await read()).body;
      expect(names(now.userCompletions)).toEqual([c2.name]);
      expect(names(now.teamCompletions)).toEqual([c1.name, c2.name].sort());

      await t.solve(cat, c3); // someone else's: nothing of hers moves
      expect((await read()).body).toEqual(now);

      await setTeam(t, ann.user!.id, null); // she leaves the team
      now = (await read()).body;
      expect(names(now.userCompletions)).toEqual([c2.name]);
      expect(now.teamCompletions).toEqual([]);
    });

    it("a team's kept completions, shared by its members' team and completions answers, follow a solve and a rename", async () => {
      const t = await scenario({ kind, users: ['ann', 'bob'], challenges: { c1: 'Simple', c2: 'Easy' } });
      const { ann, bob } = t.users;
      const { c1, c2 } = t.challenges;
      await makeTeam(t, 'Red', [ann.user!.id, bob.user!.id]);
      await t.solve(bob, c1);
      const answers = async () => {
        const [team, annCompletions, bobCompletions] = [
          (await ann.get('/api/team/info')).body,
          (await ann.get(OWN_COMPLETIONS)).body,
          (await bob.post(COMPLETIONS, {})).body,
        ];
        return {
          team: team.completions,
          ann: annCompletions.teamCompletions,
          bob: bobCompletions.teamCompletions,
        };
      };
      const credited = (list: { name: string; memberName: string }[]) =>
        list.map((c) => `${c.name} by ${c.memberName}`).sort();

      // Each answer is kept after this read, all from one kept list of the team.
      let now = await answers();
      for (const list of Object.values(now)) expect(credited(list)).toEqual([`${c1.name} by bob`]);

      await t.solve(ann, c2);
      now = await answers();
      for (const list of Object.values(now)) {
        expect(credited(list)).toEqual([`${c1.name} by bob`, `${c2.name} by ann`].sort());
      }

      // A member's new name shows in every kept answer of the team.
      await t.ctx.database.db
        .updateTable('users')
        .set({ username: 'robert' })
        .where('id', '=', bob.user!.id)
        .execute();
      t.ctx.bus.publish('users');
      now = await answers();
      for (const list of Object.values(now)) {
        expect(credited(list)).toEqual([`${c1.name} by robert`, `${c2.name} by ann`].sort());
      }
    });
  });
}
