import { CATEGORIES, DIFFICULTIES, nameKey, type ChallengeInput } from '@ctf/contract';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { createAnnouncement } from '../modules/announcements/announcements.service.js';
import { createChallenge, listChallengesForAdmin } from '../modules/challenges/challenges.service.js';
import { updateSettings } from '../modules/settings/settings.service.js';
import { SYSTEM_ACTOR } from '../modules/audit/audit.service.js';
import { inChunks, insertSolvesWithRatings, type SeededSolve } from './bulk-seed.js';

/** How big the event under way is (`npm run seed:demo -- --event`). */
export interface DemoEventSize {
  /** Players; the first ones are put in teams of 2 to 4, the others play alone. */
  players: number;
  teams: number;
  /** Challenges in all, the demo's seven included. */
  challenges: number;
  /** Days the solves spread over, ending now. */
  days: number;
  announcements: number;
}

/**
 * A week's event as a big club event has it (issue 28: the size the pages are measured at): over
 * 300 competitors, thousands of solves over the days, ten announcements, and enough challenges
 * (200) that the top 10's lines on the score graph have hundreds of steps each, as a long event's
 * leaders do.
 */
export const DEMO_EVENT: DemoEventSize = {
  players: 420,
  teams: 50,
  challenges: 200,
  days: 6,
  announcements: 10,
};

/** A small deterministic PRNG (mulberry32), so every seed makes the same event. */
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

const ADJECTIVES = ['quiet', 'rapid', 'lucky', 'null', 'stack', 'neon', 'rusty', 'hex', 'binary', 'shadow'];
const NOUNS = ['falcon', 'otter', 'packet', 'cipher', 'kernel', 'socket', 'lynx', 'byte', 'vector', 'raven'];
const TEAM_WORDS = ['Bandits', 'Crew', 'Collective', 'Syndicate', 'Guild', 'Squad', 'Club', 'Society'];
const capital = (w: string) => w[0]!.toUpperCase() + w.slice(1);

/** How many challenges competitor number k (0: the best) solves: the top 10 most of them. */
function solvesOf(k: number, challenges: number): number {
  if (k < 10) return Math.round(challenges * (0.9 - 0.04 * k));
  return Math.max(1, Math.round(40 * Math.exp(-(k - 10) / 40)));
}

/**
 * Adds an event under way to the demo challenges (seedDemo first): more challenges (one in four
 * with hints, one in six dynamic), players in teams and alone, solves spread over the last days
 * (the best competitors solving most), ratings, announcements, and the event's dates around now.
 * Challenges and announcements go through the services (sanitising, points, audit); players,
 * teams, solves and ratings in bulk through the schema, as an import would (bench/seed.ts does the
 * same at a larger scale). Returns what it made.
 */
export async function seedDemoEvent(
  ctx: AppContext,
  size: DemoEventSize = DEMO_EVENT,
): Promise<{ competitors: number; solves: number; challenges: number; announcements: number }> {
  const rand = rng(28);
  const db = ctx.database.db;
  const now = ctx.clock.now().getTime();
  const start = now - size.days * 24 * 3600 * 1000;

  const existing = (await listChallengesForAdmin(ctx)).length;
  for (let i = existing; i < size.challenges; i++) {
    const category = CATEGORIES[i % CATEGORIES.length]!;
    const difficulty = DIFFICULTIES[Math.floor(rand() * DIFFICULTIES.length)]!;
    const input: ChallengeInput = {
      name: `${capital(ADJECTIVES[i % ADJECTIVES.length]!)} ${capital(NOUNS[Math.floor(i / 10) % NOUNS.length]!)} ${i + 1}`,
      category,
      difficulty,
      written_by: i % 3 === 0 ? 'CTF Team' : `Guest ${(i % 5) + 1}`,
      description: `<p>A ${difficulty.toLowerCase()} ${category.toLowerCase()} challenge: the flag is hidden in plain sight, <code>flag{event_${i + 1}}</code> once you find it.</p>`,
      flag: `flag{event_${i + 1}}`,
      files: [],
      ...(i % 4 === 1
        ? {
            hints: [
              { title: 'Where to look', content: 'Start with what the page shows you.', cost: 0 },
              { title: 'Nearly there', content: 'The flag format is `flag{...}`.', cost: 25 },
            ].slice(0, 1 + (i % 2)),
          }
        : {}),
      ...(i % 6 === 5
        ? {
            scoring: {
              type: 'dynamic' as const,
              function: 'logarithmic' as const,
              initial: 500,
              minimum: 100,
              decay: 60,
            },
          }
        : {}),
    };
    await createChallenge(ctx, input);
  }
  const challenges = (await listChallengesForAdmin(ctx)).map((c) => ({
    id: Number(c._id),
    difficulty: c.difficulty,
  }));

  // Players, the first ones in teams of 2 to 4 (their leader the first member).
  const createdAt = new Date(start - 24 * 3600 * 1000).toISOString();
  const names = Array.from(
    { length: size.players },
    (_, i) => `${ADJECTIVES[i % 10]}${capital(NOUNS[Math.floor(i / 10) % 10]!)}${Math.floor(i / 100) || ''}`,
  );
  await inChunks(names, 200, (chunk) =>
    db
      .insertInto('users')
      .values(
        chunk.map((username) => ({
          username,
          username_key: nameKey(username),
          avatar_url: '',
          email: `${username}@example.org`,
          is_admin: 0,
          team_id: null,
          team_joined_at: null,
          created_at: createdAt,
          division_id: null,
        })),
      )
      .execute(),
  );
  const keys = names.map(nameKey);
  const idByKey = new Map(
    (
      await db.selectFrom('users').select(['id', 'username_key']).where('username_key', 'in', keys).execute()
    ).map((u) => [u.username_key, u.id]),
  );
  const userIds = keys.map((k) => idByKey.get(k)!);
  const groups: number[][] = [];
  let next = 0;
  for (let t = 0; t < size.teams && next < userIds.length; t++) {
    const count = Math.min(2 + Math.floor(rand() * 3), userIds.length - next);
    groups.push(userIds.slice(next, next + count));
    next += count;
  }
  const teamNames = groups.map(
    (_, t) =>
      `${capital(NOUNS[t % 10]!)} ${TEAM_WORDS[Math.floor(t / 10) % TEAM_WORDS.length]!}${t >= 80 ? ` ${t}` : ''}`,
  );
  await ctx.database.transaction(async (trx) => {
    for (const [t, group] of groups.entries()) {
      const name = teamNames[t]!;
      await trx
        .insertInto('teams')
        .values({
          name,
          name_key: nameKey(name),
          leader_id: group[0]!,
          member_count: group.length,
          created_at: createdAt,
        })
        .execute();
      const team = await trx
        .selectFrom('teams')
        .select('id')
        .where('name_key', '=', nameKey(name))
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('users')
        .set({ team_id: team.id, team_joined_at: createdAt })
        .where('id', 'in', group)
        .execute();
    }
  });
  const teamIds = new Map(
    (await db.selectFrom('teams').select(['id', 'name_key']).execute()).map((t) => [t.name_key, t.id]),
  );
  // Competitors in a shuffled order of strength: a team's solves are made by its members in turn.
  const competitors = [
    ...groups.map((members, t) => ({ members, teamId: teamIds.get(nameKey(teamNames[t]!))! })),
    ...userIds.slice(next).map((id) => ({ members: [id], teamId: null as number | null })),
  ]
    .map((c) => ({ c, order: rand() }))
    .sort((a, b) => a.order - b.order)
    .map((x) => x.c);

  // Easier challenges are solved more; each competitor's solves spread over the days, early ones first.
  const weight = (d: string) =>
    DIFFICULTIES.length - DIFFICULTIES.indexOf(d as (typeof DIFFICULTIES)[number]);
  const solves: SeededSolve[] = [];
  for (const [k, c] of competitors.entries()) {
    const picked = challenges
      .map((ch) => ({ ch, key: Math.pow(rand(), 1 / weight(ch.difficulty)) }))
      .sort((a, b) => b.key - a.key)
      .slice(0, solvesOf(k, challenges.length));
    const times = picked
      .map(() => start + Math.floor(Math.pow(rand(), 1.3) * (now - 10 * 60 * 1000 - start)))
      .sort((a, b) => a - b);
    picked.forEach(({ ch }, i) =>
      solves.push({
        user_id: c.members[i % c.members.length]!,
        challenge_id: ch.id,
        team_id: c.teamId,
        created_at: new Date(times[i]!).toISOString(),
      }),
    );
  }
  await insertSolvesWithRatings(db, solves, rand);
  if (ctx.database.dialect === 'postgres') await sql`analyze`.execute(db);

  for (let i = 0; i < size.announcements; i++) {
    await createAnnouncement(ctx, {
      title: i === 0 ? 'Welcome to the event' : `Update ${i}: new challenges and fixes`,
      body:
        i === 0
          ? 'The event runs all week. Read the **rules**, join a team of up to four, and ask the organisers on Discord.'
          : `Challenge number ${i * 7} was fixed; **${i}** new challenges are out in *${CATEGORIES[i % CATEGORIES.length]}*.\n\n- Scores are unchanged\n- Good luck!`,
      pinned: i === 0,
    });
  }
  // The event is under way: it began with the first solves and ends tomorrow.
  await updateSettings(
    ctx,
    {
      eventStart: new Date(start - 3600 * 1000).toISOString(),
      eventEnd: new Date(now + 24 * 3600 * 1000).toISOString(),
    },
    SYSTEM_ACTOR,
  );
  for (const t of ['challenges', 'solves', 'ratings', 'teams', 'users'] as const) ctx.bus.publish(t);
  return {
    competitors: competitors.length,
    solves: solves.length,
    challenges: challenges.length,
    announcements: size.announcements,
  };
}
