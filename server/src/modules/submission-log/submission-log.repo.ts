import { sql } from 'kysely';
import type { DatabaseHandle, Dialect } from '../../db/connect.js';
import type { Executor } from '../../db/schema.js';

/** An attempt to write: the competitor's team and challenge names are looked up as it is written. */
export interface NewAttemptRow {
  created_at: string;
  user_id: number;
  username: string;
  team_id: number | null;
  challenge_id: number;
  result: string;
  submitted: string | null;
  address: string;
  matched_challenge_id: number | null;
  matched_competitor: string | null;
}

/** Rows per INSERT, so one statement never holds the database's write lock for long (~10 ms on SQLite). */
const INSERT_CHUNK = 500;

/**
 * Writes attempts in order, each with its team's and challenge's names at this moment (a removed
 * challenge reads '#id'). NOTE: the rows travel as one JSON parameter that the database unpacks
 * (json_each / json_array_elements), so every batch, whatever its size, is the same statement:
 * one multi-row VALUES text per row count would prepare a new statement (~0.5 MB on SQLite) for
 * each batch size and fill the statement cache (bench/NOTES.md, the fourth round).
 */
export async function insertAttemptRows(
  database: DatabaseHandle,
  rows: readonly NewAttemptRow[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const json = JSON.stringify(rows.slice(i, i + INSERT_CHUNK));
    const insert = sql`insert into submissions (created_at, user_id, username, team_id, team_name, challenge_id,
        challenge_name, result, submitted, address, matched_challenge_id, matched_competitor)
      select r.created_at, r.user_id, r.username, r.team_id, t.name, r.challenge_id,
        coalesce(c.name, '#' || r.challenge_id), r.result, r.submitted, r.address,
        r.matched_challenge_id, r.matched_competitor
      from (${database.dialect === 'postgres' ? postgresRows(json) : sqliteRows(json)}) r
      left join teams t on t.id = r.team_id
      left join challenges c on c.id = r.challenge_id
      order by r.position`;
    // On SQLite the worker's connection writes it: a chunk's index entries never hold a request.
    if (database.writeInBackground) {
      const { sql: text, parameters } = insert.compile(database.db);
      await database.writeInBackground(text, parameters);
    } else await insert.execute(database.db);
  }
}

function sqliteRows(json: string) {
  const field = (name: string) => sql.raw(`json_extract(e.value, '$.${name}') as ${name}`);
  return sql`select e.key as position, ${sql.join(ATTEMPT_FIELDS.map(field))} from json_each(${json}) e`;
}

function postgresRows(json: string) {
  const field = (name: keyof NewAttemptRow) =>
    sql.raw(`(e.v->>'${name}')::${INTEGER_FIELDS.has(name) ? 'integer' : 'text'} as ${name}`);
  return sql`select e.position, ${sql.join(ATTEMPT_FIELDS.map(field))}
    from json_array_elements(${json}::json) with ordinality as e(v, position)`;
}

const ATTEMPT_FIELDS: readonly (keyof NewAttemptRow)[] = [
  'created_at',
  'user_id',
  'username',
  'team_id',
  'challenge_id',
  'result',
  'submitted',
  'address',
  'matched_challenge_id',
  'matched_competitor',
];
const INTEGER_FIELDS: ReadonlySet<keyof NewAttemptRow> = new Set([
  'user_id',
  'team_id',
  'challenge_id',
  'matched_challenge_id',
]);

/**
 * The correct attempt's row, written in the solve's transaction from the solve itself (its team
 * is the one the solve was credited to), so the log and the solves never disagree.
 */
export async function insertCorrectRowForSolve(
  db: Executor,
  solveId: number,
  address: string,
): Promise<void> {
  // Written as SQL: it runs at every correct flag, and the builder's form cost ~40 us to build.
  await sql`insert into submissions (created_at, user_id, username, team_id, team_name, challenge_id,
      challenge_name, result, submitted, address)
    select solves.created_at, solves.user_id, users.username, solves.team_id, teams.name,
      solves.challenge_id, challenges.name, 'correct', null, cast(${address} as text)
    from solves
    join users on users.id = solves.user_id
    join challenges on challenges.id = solves.challenge_id
    left join teams on teams.id = solves.team_id
    where solves.id = ${solveId}`.execute(db);
}

export interface SubmissionFilter {
  user?: string | undefined;
  team?: string | undefined;
  challenge?: string | undefined;
  result?: string | undefined;
  q?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** Only these rows (a signal's evidence). */
  ids?: readonly number[] | undefined;
  /** Only attempts at these challenges (an author's own); empty: none. */
  challengeIds?: readonly number[] | undefined;
}

export interface StoredSubmission {
  id: number;
  created_at: string;
  username: string;
  team_name: string | null;
  challenge_name: string;
  result: string;
  submitted: string | null;
  address: string;
}

const COLUMNS = [
  'id',
  'created_at',
  'username',
  'team_name',
  'challenge_name',
  'result',
  'submitted',
  'address',
] as const;

/**
 * How many wrong attempts one text search reads at most. A substring cannot use an index, so a
 * rare text would read the whole log (~600 ms at a million rows); instead each request reads at
 * most this many rows newest first and, when its page is not full, answers where it stopped as the
 * next cursor, so the admin's Next searches further back (bench/NOTES.md, issue 18).
 */
export const TEXT_SCAN_BUDGET = 50_000;

export interface RowsPage {
  rows: StoredSubmission[];
  /** Set when a text search stopped at its budget: the next page starts after this row. */
  scannedTo: { created_at: string; id: number } | null;
}

/**
 * One page newest first, (created_at, id) below the cursor row's when given. Each equality filter
 * has an index ending in (created_at, id), so the database walks it backwards from the cursor and
 * stops after `limit` rows; the text filter reads at most TEXT_SCAN_BUDGET rows.
 */
export async function listSubmissionRows(
  db: Executor,
  dialect: Dialect,
  filter: SubmissionFilter,
  page: { after?: { created_at: string; id: number } | undefined; limit: number; budget?: number },
): Promise<RowsPage> {
  const budget = page.budget ?? TEXT_SCAN_BUDGET;
  const base = db
    .selectFrom('submissions')
    .$if(filter.user !== undefined, (q) => q.where('username', '=', filter.user!))
    .$if(filter.team !== undefined, (q) => q.where('team_name', '=', filter.team!))
    .$if(filter.challenge !== undefined, (q) => q.where('challenge_name', '=', filter.challenge!))
    .$if(filter.result !== undefined, (q) => q.where('result', '=', filter.result!))
    .$if(filter.q !== undefined, (q) => q.where('result', '=', 'wrong'))
    .$if(filter.from !== undefined, (q) => q.where('created_at', '>=', filter.from!))
    .$if(filter.to !== undefined, (q) => q.where('created_at', '<', filter.to!))
    .$if(filter.ids !== undefined, (q) => q.where('id', 'in', filter.ids!))
    .$if(filter.challengeIds !== undefined, (q) =>
      filter.challengeIds!.length === 0
        ? q.where(sql<boolean>`1 = 0`)
        : q.where('challenge_id', 'in', filter.challengeIds!),
    )
    .$if(page.after !== undefined, (q) =>
      q.where(sql<boolean>`(created_at, id) < (${page.after!.created_at}, ${page.after!.id})`),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');
  if (filter.q === undefined) {
    return { rows: await base.select(COLUMNS).limit(page.limit).execute(), scannedTo: null };
  }
  // instr() on SQLite and strpos() on PostgreSQL: a plain substring test, no LIKE wildcards.
  const contains =
    dialect === 'postgres'
      ? sql<boolean>`strpos(w.submitted, ${filter.q}) > 0`
      : sql<boolean>`instr(w.submitted, ${filter.q}) > 0`;
  const rows = await db
    .selectFrom(base.select(COLUMNS).limit(budget).as('w'))
    .selectAll()
    .where(contains)
    .orderBy('w.created_at', 'desc')
    .orderBy('w.id', 'desc')
    .limit(page.limit)
    .execute();
  if (rows.length >= page.limit) return { rows, scannedTo: null };
  const boundary = await base
    .select(['created_at', 'id'])
    .offset(budget - 1)
    .limit(1)
    .executeTakeFirst();
  return { rows, scannedTo: boundary ?? null };
}

export async function findSubmissionTime(
  db: Executor,
  id: number,
): Promise<{ created_at: string; id: number } | null> {
  return (
    (await db
      .selectFrom('submissions')
      .select(['created_at', 'id'])
      .where('id', '=', id)
      .executeTakeFirst()) ?? null
  );
}

/** Deletes attempts other than correct ones recorded before the cutoff (the retention setting). */
export async function deleteOldAttempts(db: Executor, beforeIso: string): Promise<number> {
  const result = await db
    .deleteFrom('submissions')
    .where('result', '<>', 'correct')
    .where('created_at', '<', beforeIso)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface EvidenceRow {
  id: number;
  created_at: string;
  username: string;
  team_name: string | null;
  challenge_id: number;
  challenge_name: string;
  address: string;
}

const EVIDENCE = [
  'id',
  'created_at',
  'username',
  'team_name',
  'challenge_id',
  'challenge_name',
  'address',
] as const;

/** Every correct attempt by challenge and time (signal a). */
export async function listCorrectRows(db: Executor): Promise<EvidenceRow[]> {
  return db
    .selectFrom('submissions')
    .select(EVIDENCE)
    .where('result', '=', 'correct')
    .orderBy('challenge_id')
    .orderBy('created_at')
    .execute();
}

/** Each (address, user, team) seen in the log once, with its first row (signal b). */
export async function listAddressUsers(
  db: Executor,
): Promise<{ address: string; username: string; team_name: string | null; id: number }[]> {
  const rows = await db
    .selectFrom('submissions')
    .select(['address', 'username', 'team_name', (eb) => eb.fn.min<number>('id').as('id')])
    .groupBy(['address', 'username', 'team_name'])
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** Wrong attempts that were another challenge's flag, with that challenge's name (signal c). */
export async function listOtherFlagRows(
  db: Executor,
): Promise<(EvidenceRow & { matched_name: string | null; matched_competitor: string | null })[]> {
  return db
    .selectFrom('submissions')
    .leftJoin('challenges', 'challenges.id', 'submissions.matched_challenge_id')
    .select([
      'submissions.id',
      'submissions.created_at',
      'submissions.username',
      'submissions.team_name',
      'submissions.challenge_id',
      'submissions.challenge_name',
      'submissions.address',
      'challenges.name as matched_name',
      'submissions.matched_competitor',
    ])
    .where('submissions.matched_challenge_id', 'is not', null)
    .orderBy('submissions.id', 'desc')
    .limit(500)
    .execute();
}

/**
 * Minutes in which one user sent at least `attempts` wrong attempts over at least `challenges`
 * challenges (signal d), with the ids of those attempts.
 */
export async function listBursts(
  db: Executor,
  threshold: { attempts: number; challenges: number },
): Promise<{ username: string; team_name: string | null; minute: string; count: number; ids: number[] }[]> {
  const minute = sql<string>`substr(created_at, 1, 16)`;
  const groups = await db
    .selectFrom('submissions')
    .select([
      'username',
      minute.as('minute'),
      (eb) => eb.fn.countAll<number>().as('count'),
      (eb) => eb.fn.max<string | null>('team_name').as('team_name'),
    ])
    .where('result', '=', 'wrong')
    .groupBy(['username', minute])
    .having((eb) => eb.fn.countAll(), '>=', threshold.attempts)
    .having((eb) => eb.fn.count(sql`distinct challenge_id`), '>=', threshold.challenges)
    .orderBy(minute, 'desc')
    .limit(100)
    .execute();
  const out = [];
  for (const g of groups) {
    const ids = await db
      .selectFrom('submissions')
      .select('id')
      .where('username', '=', g.username)
      .where('result', '=', 'wrong')
      .where('created_at', '>=', `${g.minute}:00`)
      .where('created_at', '<', `${g.minute}:60`)
      .orderBy('id')
      .limit(200)
      .execute();
    out.push({ ...g, count: Number(g.count), ids: ids.map((r) => r.id) });
  }
  return out;
}
