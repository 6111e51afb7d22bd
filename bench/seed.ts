import { CATEGORIES, DIFFICULTIES, nameKey } from '@ctf/contract';
import { sql } from 'kysely';
import { Readable } from 'node:stream';
import type { AppContext } from '../server/src/context.js';
import { createSession } from '../server/src/modules/auth/sessions.service.js';
import { createChallenge } from '../server/src/modules/challenges/challenges.service.js';
import { saveUpload } from '../server/src/modules/files/files.service.js';
import { setSiteActive } from '../server/src/modules/site/site.service.js';
import { makeZip } from '../server/src/lib/zip.js';
import { inChunks, insertSolvesWithRatings, type SeededSolve } from '../server/src/scripts/bulk-seed.js';

export interface EventSize {
  users: number;
  teams: number;
  challenges: number;
  solves: number;
  files: number;
  /** How many users get a session token for the load scripts. */
  sessions: number;
}

export const BASE_EVENT: EventSize = {
  users: 5000,
  teams: 1500,
  challenges: 100,
  solves: 50_000,
  files: 20,
  sessions: 1000,
};
export const DOUBLE_EVENT: EventSize = {
  users: 10_000,
  teams: 3000,
  challenges: 100,
  solves: 100_000,
  files: 20,
  sessions: 1000,
};
/**
 * How the challenges score. 'half': every other challenge dynamic (issue 16: leaderboard and list
 * must keep >= 0.5 of hello-world, the graph >= 0.3, and a correct flag stays O(what changed)); the
 * benchmark's dynamic leg seeds it so. BENCH_DYNAMIC=half makes it the default of every event.
 */
export type Scoring = 'static' | 'half';
const DEFAULT_SCORING: Scoring = process.env.BENCH_DYNAMIC === 'half' ? 'half' : 'static';

/**
 * Every fifth challenge (issue 17) accepts, beside its static flag, three regex flags (RE2): each
 * submission to it runs all four comparisons. The patterns of challenge number `i` (0-based).
 */
export function regexFlagPatterns(i: number): string[] {
  return [
    `flag\\{bench_${i}_[0-9a-z]{4,12}\\}`,
    `(?i)flag\\{regex_${i}_[0-9a-f]{8}\\}`,
    `flag\\{(alpha|beta|gamma|delta)_${i}_\\d{2,6}(_[a-z]+)*\\}`,
  ];
}

/** A correct flag of regex challenge number `i` that only a regex accepts (fresh at each call). */
export function regexFlagAnswer(i: number, random: () => number = Math.random): string {
  const hex = Math.floor(random() * 0xffffffff)
    .toString(16)
    .padStart(8, '0');
  return random() < 0.5
    ? `FLAG{regex_${i}_${hex}}`
    : `flag{${['alpha', 'beta', 'gamma', 'delta'][Math.floor(random() * 4)]}_${i}_${100 + Math.floor(random() * 9900)}_x}`;
}

const isRegexChallenge = (i: number) => i % 5 === 2;

export const TINY_EVENT: EventSize = {
  users: 40,
  teams: 10,
  challenges: 12,
  solves: 150,
  files: 2,
  sessions: 10,
};

export interface SeededEvent {
  /** Session tokens of random participants (cookie values). */
  sessions: { token: string; userId: number }[];
  /** challenge id -> flag, for the submission scenario (the static one, also of regex challenges). */
  flags: Map<number, string>;
  challengeIds: number[];
  /** The challenges with regex flags: id and the number their patterns are made from. */
  regexChallenges: { id: number; index: number }[];
  /** The challenges with dynamic scoring. */
  dynamicChallengeIds: number[];
  /** A session of an admin (not a competitor): the announcements of the stream leg. */
  adminToken: string;
}

/** A small deterministic PRNG so every run seeds the same event. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Builds a large event through the product's own data layer: challenges and files through the
 * services (points, sanitising, ZIP checks), users, teams, solves and ratings in bulk through the
 * Kysely schema (the same tables and constraints the API writes).
 */
export async function seedEvent(
  ctx: AppContext,
  size: EventSize,
  options: { scoring?: Scoring; seed?: number } = {},
): Promise<SeededEvent> {
  const seed = options.seed ?? 2025;
  const dynamicHalf = (options.scoring ?? DEFAULT_SCORING) === 'half';
  const rand = rng(seed);
  const db = ctx.database.db;
  const weekStart = Date.parse('2025-10-15T01:00:00Z');
  const week = 7 * 24 * 3600 * 1000;

  const fileNames: string[] = [];
  for (let i = 0; i < size.files; i++) {
    const name = `handout-${String(i + 1).padStart(2, '0')}.zip`;
    const zip = makeZip([{ name: 'README.txt', content: `Handout ${i + 1}\n`.repeat(200) }]);
    await saveUpload(ctx, {
      filename: name,
      mimetype: 'application/zip',
      stream: Readable.from([zip]),
      truncated: () => false,
    });
    fileNames.push(name);
  }

  const flags = new Map<number, string>();
  const challengeIds: number[] = [];
  const regexChallenges: SeededEvent['regexChallenges'] = [];
  const dynamicChallengeIds: number[] = [];
  const difficultyOf = new Map<number, number>();
  for (let i = 0; i < size.challenges; i++) {
    const d = i % DIFFICULTIES.length;
    const flag = `flag{bench_${i}_${Math.floor(rand() * 1e9).toString(36)}}`;
    const { id } = await createChallenge(ctx, {
      name: `Challenge ${String(i + 1).padStart(3, '0')}`,
      description:
        `<p>Challenge number ${i + 1}. Find the flag hidden in the <strong>service</strong>.</p>`.repeat(2),
      category: CATEGORIES[i % CATEGORIES.length]!,
      difficulty: DIFFICULTIES[d]!,
      written_by: `author${i % 9}`,
      ...(isRegexChallenge(i)
        ? {
            flags: [
              { type: 'static' as const, content: flag },
              ...regexFlagPatterns(i).map((content) => ({ type: 'regex' as const, content })),
            ],
          }
        : { flag }),
      files: fileNames.length ? [fileNames[i % fileNames.length]!] : [],
      // BENCH_DYNAMIC=half: every other challenge dynamic (issue 16), alternating the two functions,
      // so that a correct flag moves the value (and the scores) of every solver of it.
      ...(dynamicHalf && i % 2 === 1
        ? {
            scoring: {
              type: 'dynamic' as const,
              function: i % 4 === 1 ? ('linear' as const) : ('logarithmic' as const),
              initial: 500,
              minimum: 50,
              decay: i % 4 === 1 ? 1 : 2000,
            },
          }
        : {}),
    });
    flags.set(id, flag);
    challengeIds.push(id);
    difficultyOf.set(id, d);
    if (isRegexChallenge(i)) regexChallenges.push({ id, index: i });
    if (dynamicHalf && i % 2 === 1) dynamicChallengeIds.push(id);
  }

  const createdAt = new Date(weekStart - 86400000).toISOString();
  const users = Array.from({ length: size.users }, (_, i) => {
    const username = `player${i + 1}`;
    return {
      username,
      username_key: nameKey(username),
      avatar_url: '',
      email: `${username}@example.org`,
      is_admin: 0,
      team_id: null,
      team_joined_at: null,
      created_at: createdAt,
    };
  });
  await inChunks(users, 500, (chunk) => db.insertInto('users').values(chunk).execute());
  const userRows = await db
    .selectFrom('users')
    .select('id')
    .where('username', 'like', 'player%')
    .orderBy('id')
    .execute();
  const userIds = userRows.map((r) => r.id);

  // Teams of 1-4 members from the first users; the rest play solo.
  const teamOf = new Map<number, number>();
  let next = 0;
  const teams: {
    name: string;
    name_key: string;
    leader_id: number;
    member_count: number;
    created_at: string;
  }[] = [];
  const members: number[][] = [];
  for (let t = 0; t < size.teams && next < userIds.length; t++) {
    const count = Math.min(1 + Math.floor(rand() * 4), userIds.length - next);
    const group = userIds.slice(next, next + count);
    next += count;
    members.push(group);
    const name = `Team ${t + 1}`;
    teams.push({
      name,
      name_key: nameKey(name),
      leader_id: group[0]!,
      member_count: count,
      created_at: createdAt,
    });
  }
  await inChunks(teams, 500, (chunk) => db.insertInto('teams').values(chunk).execute());
  const teamRows = await db.selectFrom('teams').select(['id', 'name']).orderBy('id').execute();
  const idByName = new Map(teamRows.map((r) => [r.name, r.id]));
  await ctx.database.transaction(async (trx) => {
    for (const [i, group] of members.entries()) {
      const teamId = idByName.get(`Team ${i + 1}`)!;
      for (const uid of group) teamOf.set(uid, teamId);
      await trx
        .updateTable('users')
        .set({ team_id: teamId, team_joined_at: createdAt })
        .where('id', 'in', group)
        .execute();
    }
  });

  // Solves: easier challenges are more popular; times front-loaded over the week.
  const weights = challengeIds.map((id) => 5 - difficultyOf.get(id)!);
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const pick = () => {
    let r = rand() * totalWeight;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i]!;
      if (r <= 0) return challengeIds[i]!;
    }
    return challengeIds[challengeIds.length - 1]!;
  };
  const seen = new Set<string>();
  const solves: SeededSolve[] = [];
  const maxSolves = Math.min(size.solves, userIds.length * challengeIds.length);
  while (solves.length < maxSolves) {
    const uid = userIds[Math.floor(rand() * userIds.length)]!;
    const cid = pick();
    const key = `${uid}:${cid}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const t = weekStart + Math.floor(Math.pow(rand(), 1.6) * week);
    solves.push({
      user_id: uid,
      challenge_id: cid,
      team_id: teamOf.get(uid) ?? null,
      created_at: new Date(t).toISOString(),
    });
  }
  await insertSolvesWithRatings(db, solves, rand);

  // One admin (no competitor: admins count nowhere), whose session posts the stream leg's announcements.
  await db
    .insertInto('users')
    .values({
      username: 'benchadmin',
      username_key: nameKey('benchadmin'),
      avatar_url: '',
      email: 'benchadmin@example.org',
      is_admin: 1,
      role: 'admin',
      team_id: null,
      team_joined_at: null,
      created_at: createdAt,
    })
    .execute();
  const admin = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'benchadmin')
    .executeTakeFirstOrThrow();

  await setSiteActive(ctx, true);
  for (const t of ['challenges', 'solves', 'ratings', 'teams', 'users'] as const) ctx.bus.publish(t);
  // A bulk import leaves PostgreSQL without statistics until autovacuum's next round (up to a
  // minute): gather them now, as an operator would after an import. (SQLite gathers them at
  // start-up: db/connect.ts.)
  if (ctx.database.dialect === 'postgres') await sql`analyze`.execute(db);

  const sessions: SeededEvent['sessions'] = [];
  for (let i = 0; i < size.sessions; i++) {
    const userId = userIds[Math.floor(rand() * userIds.length)]!;
    const { token } = await createSession(ctx, userId);
    sessions.push({ token, userId });
  }
  const { token: adminToken } = await createSession(ctx, admin.id);
  return { sessions, flags, challengeIds, regexChallenges, dynamicChallengeIds, adminToken };
}
