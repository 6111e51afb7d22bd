import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { HttpClient } from './support/http.js';
import { startServer, type RunningServer } from './support/server.js';
import { createPostgresDatabase } from './support/services.js';
import { seededRandom } from '../server/test/seeded-random.js';

/**
 * Every acknowledged write survives a kill -9 (docs/product.md §14). A write load (solves, ratings and
 * team changes) runs against the real server process, which is killed with SIGKILL at a random
 * moment and started again on the same data. Every write answered 2xx before the kill is there;
 * the SQLite file passes integrity_check; and the leaderboard after the restart, and after an
 * admin force_update, is the one the acknowledged solves make (the last one read before the kill
 * when no unacknowledged solve slipped in).
 */

const legs: ('sqlite' | 'postgres')[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
const SECRET = 'durability-secret-durability-secret-0123456789';
const DIFFICULTY_POINTS = { Simple: 50, Easy: 100, Medium: 200, Hard: 300, Extreme: 400 } as const;
const DIFFICULTIES = Object.keys(DIFFICULTY_POINTS) as (keyof typeof DIFFICULTY_POINTS)[];
/** Bounds of the load: it never runs longer or sends more than this, killed or not. */
const MAX_LOAD_MS = 6_000;
const MAX_CHURN_ROUNDS = 60;

interface Challenge {
  id: string;
  flag: string;
  points: number;
}
interface Player {
  name: string;
  client: HttpClient;
  /** The competitor the player's solves count for (a team's name, or their own). */
  competitor: string;
}
type Entry = { name: string; points: number };

/** The leaderboard the given solves make (docs/product.md §12): each challenge once per competitor. */
function leaderboardOf(solves: readonly { player: Player; challenge: Challenge }[]): Entry[] {
  const seen = new Map<string, Set<string>>();
  const points = new Map<string, number>();
  for (const { player, challenge } of solves) {
    const done = seen.get(player.competitor) ?? new Set<string>();
    seen.set(player.competitor, done);
    if (done.has(challenge.id)) continue;
    done.add(challenge.id);
    points.set(player.competitor, (points.get(player.competitor) ?? 0) + challenge.points);
  }
  return [...points].map(([name, p]) => ({ name, points: p }));
}

const byName = (entries: readonly Entry[]) => [...entries].sort((a, b) => a.name.localeCompare(b.name));

/** Whether a request failed because the server went away (not an answer). */
async function attempt<T>(fn: () => Promise<T>): Promise<T | 'lost'> {
  try {
    return await fn();
  } catch {
    return 'lost';
  }
}

for (const leg of legs) {
  describe(`durability on ${leg}`, () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ctf-durable-'));
    let server: RunningServer | null = null;
    let dropDb: (() => Promise<void>) | null = null;
    afterAll(async () => {
      await server?.stop();
      await dropDb?.();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('keeps every acknowledged write through a SIGKILL at a random moment', async () => {
      const seed = Number(process.env.DURABILITY_SEED ?? Date.now() % 1_000_000);
      const rand = seededRandom(seed);
      const why = (what: string) => `${what} (replay with DURABILITY_SEED=${seed})`;
      const env: Record<string, string> = {
        DATA_DIR: dataDir,
        SESSION_SECRET: SECRET,
        EVENT_START: '2020-01-01T00:00:00Z',
        EVENT_END: '2020-01-08T00:00:00Z',
      };
      if (leg === 'postgres') {
        const db = await createPostgresDatabase();
        dropDb = db.drop;
        env.DATABASE_URL = db.url;
      }
      server = await startServer(env);
      let base = server.url;
      const signIn = async (name: string, admin = false) => new HttpClient(base).signIn(base, name, admin);

      // The event: challenges, two teams of two, two players alone, and three pairs who churn teams.
      const admin = await signIn('durable-admin', true);
      const challenges: Challenge[] = [];
      for (let i = 0; i < 14; i++) {
        const difficulty = DIFFICULTIES[i % DIFFICULTIES.length]!;
        const r = await admin.post(base, '/api/admin/ctf/create_challenge', {
          name: `Durable ${i}`,
          category: 'General',
          difficulty,
          written_by: 'x',
          flag: `flag{durable-${i}}`,
        });
        expect(r.status, r.text).toBe(200);
      }
      for (const c of (await admin.get(base, '/api/admin/ctf/fetch_challenges')).body as {
        _id: string;
        flag: string;
        points: number;
      }[]) {
        challenges.push({ id: c._id, flag: c.flag, points: c.points });
      }
      expect((await admin.post(base, '/api/admin/update_site_info', { activated: true })).status).toBe(200);
      const players: Player[] = [];
      for (const team of ['Durable Red', 'Durable Blue']) {
        const [lead, mate] = [
          await signIn(`${team} lead`.replace(/ /g, '-')),
          await signIn(`${team} mate`.replace(/ /g, '-')),
        ];
        expect((await lead.post(base, '/api/team/create', { team_name: team })).status).toBe(200);
        expect((await mate.post(base, '/api/team/request', { team_name: team })).status).toBe(200);
        const [req] = (await lead.get(base, '/api/team/info')).body.join_requests;
        expect(
          (await lead.post(base, '/api/team/add-member', { request_id: req._id, checksum: req.checksum }))
            .status,
        ).toBe(200);
        players.push(
          { name: 'lead', client: lead, competitor: team },
          { name: 'mate', client: mate, competitor: team },
        );
      }
      for (const name of ['solo-one', 'solo-two'])
        players.push({ name, client: await signIn(name), competitor: name });
      const pairs: { lead: HttpClient; member: HttpClient; i: number }[] = [];
      for (let i = 0; i < 3; i++)
        pairs.push({ lead: await signIn(`churn-lead-${i}`), member: await signIn(`churn-member-${i}`), i });

      // The work, shuffled by the seed: every player solves every challenge once.
      const work = players.flatMap((player) => challenges.map((challenge) => ({ player, challenge })));
      for (let i = work.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [work[i], work[j]] = [work[j]!, work[i]!];
      }

      const acked: { player: Player; challenge: Challenge }[] = [];
      let inFlight: { player: Player; challenge: Challenge } | null = null;
      let snapshot: { afterAcks: number; board: Entry[] } | null = null;
      const ackedRatings: { player: Player; challenge: Challenge; rating: number }[] = [];
      let ratingInFlight: { player: Player; challenge: Challenge } | null = null;
      type TeamState = { lead: string; member: string };
      const churn = pairs.map(() => ({
        acked: { lead: 'None', member: 'None' } as TeamState,
        next: null as TeamState | null,
      }));
      let killed = false;
      const started = Date.now();
      const live = () => !killed && Date.now() - started < MAX_LOAD_MS;

      const scorer = async () => {
        for (const item of work) {
          if (!live()) return;
          inFlight = item;
          const res = await attempt(() =>
            item.player.client.post(base, '/api/ctf/submit-flag', {
              challenge_id: item.challenge.id,
              flag: item.challenge.flag,
            }),
          );
          if (res === 'lost') return;
          expect(res.status, why(res.text)).toBe(200);
          expect(res.body.message).toBe('Correct Flag!');
          acked.push(item);
          inFlight = null;
          const board = await attempt(() => admin.get(base, '/api/info/leaderboard'));
          if (board === 'lost') return;
          // Each read after an acknowledged solve shows exactly the solves acknowledged so far.
          expect(byName(board.body), why('leaderboard during the load')).toEqual(
            byName(leaderboardOf(acked)),
          );
          snapshot = { afterAcks: acked.length, board: board.body };
        }
      };
      const rater = async () => {
        let done = 0;
        while (live()) {
          const item = acked[done];
          if (!item) {
            await new Promise((r) => setTimeout(r, 5));
            continue;
          }
          done += 1;
          const rating = 1 + Math.floor(rand() * 5);
          ratingInFlight = item;
          const res = await attempt(() =>
            item.player.client.post(base, '/api/ctf/rate-challenge', {
              challenge_id: item.challenge.id,
              rating,
            }),
          );
          if (res === 'lost') return;
          expect(res.status, why(res.text)).toBe(200);
          ackedRatings.push({ ...item, rating });
          ratingInFlight = null;
        }
      };
      const churner = async (pair: (typeof pairs)[number]) => {
        const state = churn[pair.i]!;
        for (let round = 0; round < MAX_CHURN_ROUNDS && live(); round++) {
          const team = `churn-${pair.i}-${round}`;
          const step = async (next: TeamState, call: () => Promise<{ status: number; text: string }>) => {
            state.next = next;
            const res = await attempt(call);
            if (res === 'lost') return false;
            expect(res.status, why(`${team}: ${res.text}`)).toBe(200);
            state.acked = next;
            state.next = null;
            return live();
          };
          if (
            !(await step({ lead: team, member: 'None' }, () =>
              pair.lead.post(base, '/api/team/create', { team_name: team }),
            ))
          )
            return;
          if (
            !(await step({ lead: team, member: 'None' }, () =>
              pair.member.post(base, '/api/team/request', { team_name: team }),
            ))
          )
            return;
          const info = await attempt(() => pair.lead.get(base, '/api/team/info'));
          if (info === 'lost') return;
          const [req] = info.body.join_requests;
          if (
            !(await step({ lead: team, member: team }, () =>
              pair.lead.post(base, '/api/team/add-member', { request_id: req._id, checksum: req.checksum }),
            ))
          )
            return;
          if (
            !(await step({ lead: team, member: 'None' }, () =>
              pair.member.post(base, '/api/team/replace-leader', { team_data: { name: team } }),
            ))
          )
            return;
          if (
            !(await step({ lead: 'None', member: 'None' }, () =>
              pair.lead.post(base, '/api/team/replace-leader', { team_data: { name: team } }),
            ))
          )
            return;
        }
      };

      const killAfter = 800 + Math.floor(rand() * 1700);
      const load = Promise.all([scorer(), rater(), ...pairs.map(churner)]);
      await new Promise((r) => setTimeout(r, killAfter));
      killed = true;
      const exited = new Promise((r) => server!.process.once('exit', r));
      server.process.kill('SIGKILL');
      await exited;
      await load;
      expect(acked.length, why('solves acknowledged before the kill')).toBeGreaterThan(0);

      if (leg === 'sqlite') {
        const db = new Database(path.join(dataDir, 'ctf.sqlite'));
        try {
          expect(db.pragma('integrity_check', { simple: true }), why('integrity_check')).toBe('ok');
          expect(db.pragma('foreign_key_check'), why('foreign_key_check')).toEqual([]);
        } finally {
          db.close();
        }
      }

      // Up again on the same data; sessions live in the database, so the same cookies still work.
      server = await startServer(env);
      base = server.url;
      const again = (c: HttpClient) => Object.assign(new HttpClient(base), { cookie: c.cookie });
      const info = async (c: HttpClient) =>
        (await again(c).get(base, '/api/user/info')).body as {
          team: string;
          completions: { id: string }[];
          user_rates: string[];
        };

      for (const { player, challenge } of acked) {
        expect(
          (await info(player.client)).completions.map((c) => c.id),
          why(`acknowledged solve ${player.competitor}/${challenge.id}`),
        ).toContain(challenge.id);
      }
      for (const { player, challenge, rating } of ackedRatings) {
        expect((await info(player.client)).user_rates, why(`acknowledged rating ${rating}`)).toContain(
          challenge.id,
        );
      }
      for (const pair of pairs) {
        const state = churn[pair.i]!;
        const now = { lead: (await info(pair.lead)).team, member: (await info(pair.member)).team };
        const allowed = [state.acked, ...(state.next ? [state.next] : [])];
        expect(allowed, why(`team state of pair ${pair.i}: ${JSON.stringify(now)}`)).toContainEqual(now);
      }
      // No solve exists that was never sent; the one in flight may or may not have made it.
      const inFlightSolve = inFlight as { player: Player; challenge: Challenge } | null;
      const landed =
        inFlightSolve !== null &&
        (await info(inFlightSolve.player.client)).completions.some(
          (c) => c.id === inFlightSolve.challenge.id,
        );
      const committed = landed ? [...acked, inFlightSolve!] : acked;
      let stored = 0;
      let rated = 0;
      for (const p of players) {
        const me = await info(p.client);
        stored += me.completions.length;
        rated += me.user_rates.length;
      }
      expect(stored, why('stored solves')).toBe(committed.length);
      const pendingRating = ratingInFlight as { player: Player; challenge: Challenge } | null;
      const ratingLanded =
        pendingRating !== null &&
        (await info(pendingRating.player.client)).user_rates.includes(pendingRating.challenge.id);
      expect(rated, why('stored ratings')).toBe(ackedRatings.length + (ratingLanded ? 1 : 0));

      const after = (await again(admin).get(base, '/api/info/leaderboard')).body as Entry[];
      expect(byName(after), why('leaderboard after restart')).toEqual(byName(leaderboardOf(committed)));
      const lastRead = snapshot as { afterAcks: number; board: Entry[] } | null;
      if (!landed && lastRead?.afterAcks === acked.length) {
        expect(after, why('leaderboard after restart, as last read before the kill')).toEqual(lastRead.board);
      }
      for (let i = 1; i < after.length; i++)
        expect(after[i - 1]!.points).toBeGreaterThanOrEqual(after[i]!.points);
      expect((await again(admin).get(base, '/api/admin/ctf/force_update')).body.acknowledge).toBe(true);
      expect(
        (await again(admin).get(base, '/api/info/leaderboard')).body,
        why('leaderboard after force_update'),
      ).toEqual(after);

      // The team rows agree with the memberships, whatever the kill interrupted.
      if (leg === 'postgres') {
        const client = new pg.Client({ connectionString: env.DATABASE_URL });
        await client.connect();
        try {
          const { rows } = await client.query(
            'select t.id, t.member_count, (select count(*) from users u where u.team_id = t.id)::int as members from teams t',
          );
          for (const r of rows) expect(r.member_count, why(`team ${r.id}`)).toBe(r.members);
        } finally {
          await client.end();
        }
      } else {
        const db = new Database(path.join(dataDir, 'ctf.sqlite'), { readonly: true });
        try {
          const rows = db
            .prepare(
              'select t.id, t.member_count, (select count(*) from users u where u.team_id = t.id) as members from teams t',
            )
            .all() as { id: number; member_count: number; members: number }[];
          for (const r of rows) expect(r.member_count, why(`team ${r.id}`)).toBe(r.members);
        } finally {
          db.close();
        }
      }
    });
  });
}
