import { stringify } from 'csv-stringify';
import { Readable } from 'node:stream';
import {
  integrityApi,
  seesSubmittedText,
  type Role,
  type SubmissionFilters,
  type SubmissionPage,
  type SubmissionQuery,
  type SubmissionRow,
} from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { Executor, UserRow } from '../../db/schema.js';
import { CachedValue } from '../../lib/invalidation.js';
import { readStoredSetting } from '../event-state/event-state.service.js';
import {
  competitorOfUser,
  anyPatternMatcher,
  flagMatcher,
  listAllFlags,
  listCompetitors,
  ownerOfSuffix,
  teamFlagKey,
  teamFlagSuffixOf,
  workableChallengeIds,
  type ChallengeActor,
  type FlagMatcher,
} from '../challenges/challenges.service.js';
import {
  deleteOldAttempts,
  findSubmissionTime,
  insertCorrectRowForSolve,
  insertAttemptRows,
  listSubmissionRows,
  type NewAttemptRow,
  type StoredSubmission,
  type SubmissionFilter,
} from './submission-log.repo.js';

/** How long attempts wait in memory before they are written (at most this much is lost on a crash). */
export const FLUSH_INTERVAL_MS = 1000;
/** A batch this large is written at once, whatever the time. */
const FLUSH_BATCH = 2000;
/** Past this many unwritten rows (a database outage), the oldest are dropped rather than memory grown. */
const MAX_PENDING = 50_000;
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

type AttemptResult = Exclude<integrityApi.SubmissionResultName, 'correct'>;

interface PendingAttempt {
  at: string;
  user: { id: number; username: string; teamId: number | null };
  challengeId: number;
  result: AttemptResult;
  submitted: string | null;
  address: string;
}

/**
 * Attempts other than correct ones, kept in memory and written in one multi-row INSERT at most a
 * second later, off the request path: a wrong flag costs the request an array push, not a write.
 * NOTE: a crash loses at most the last second of them (FLUSH_INTERVAL_MS, docs/security.md); a
 * graceful close writes what is pending. A correct flag's row is written with its solve instead.
 */
class AttemptBuffer {
  private pending: PendingAttempt[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: AppContext) {}

  /** Attempts waiting for their write (the metrics' submission-log queue). */
  get size(): number {
    return this.pending.length;
  }

  push(attempt: PendingAttempt): void {
    this.pending.push(attempt);
    if (this.pending.length > MAX_PENDING) this.pending.splice(0, this.pending.length - MAX_PENDING);
    if (this.pending.length >= FLUSH_BATCH) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS);
      this.timer.unref();
    }
  }

  /** Writes everything pending; resolves once it is stored (or once a failure was reported). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(() => (batch.length ? this.write(batch) : undefined));
    return this.flushing;
  }

  private async write(batch: PendingAttempt[]): Promise<void> {
    const db = this.ctx.database.db;
    try {
      const rows: NewAttemptRow[] = batch.map((a) => ({
        created_at: a.at,
        user_id: a.user.id,
        username: a.user.username,
        team_id: a.user.teamId,
        challenge_id: a.challengeId,
        result: a.result,
        submitted: a.submitted,
        address: a.address,
        matched_challenge_id: null,
        matched_competitor: null,
      }));
      const matchOther = await otherFlagFinder(this.ctx);
      let competitors: Awaited<ReturnType<typeof listCompetitors>> | null = null;
      const key = teamFlagKey(this.ctx.config.sessionSecret);
      for (const [i, row] of rows.entries()) {
        if (row.result !== 'wrong' || !row.submitted) continue;
        row.matched_challenge_id = matchOther.otherFlag(row.submitted, row.challenge_id);
        // Shaped like a per-team flag: whose is it? Derived for each competitor until one matches
        // (only for such texts, off the request path). Another competitor's is certain evidence.
        for (const candidate of matchOther.perTeamShaped(row.submitted)) {
          competitors ??= await listCompetitors(db);
          const owner = ownerOfSuffix(key, candidate.challengeId, candidate.suffix, competitors);
          if (!owner) continue;
          const sender = competitorOfUser({ id: batch[i]!.user.id, team_id: batch[i]!.user.teamId });
          const own = owner.kind === sender.kind && owner.id === sender.id;
          if (own && candidate.challengeId === row.challenge_id) continue;
          row.matched_challenge_id = candidate.challengeId;
          row.matched_competitor = own ? null : owner.name;
          break;
        }
      }
      await insertAttemptRows(this.ctx.database, rows);
    } catch (err) {
      // Put the batch back for the next flush; never log the rows (they hold submitted flags).
      this.pending = [...batch, ...this.pending].slice(-MAX_PENDING);
      this.ctx.log.error({ err: { message: (err as Error).message } }, 'submission log write failed');
      if (!this.timer) {
        this.timer = setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS);
        this.timer.unref();
      }
    }
  }
}

interface OtherFlagFinder {
  /** Which challenge's flag a text is, other than the challenge it was sent to (null: none). */
  otherFlag: (text: string, sentTo: number) => number | null;
  /** The per-team challenges whose flags the text is shaped like, with the suffix it carries. */
  perTeamShaped: (text: string) => { challengeId: number; suffix: string }[];
}

const finders = new WeakMap<AppContext, CachedValue<OtherFlagFinder>>();

/**
 * Signal (c): a wrong attempt that is the flag of another challenge, told when the attempt is
 * written (off the request path), with every challenge's matchers kept until a challenge changes.
 * Static flags are looked up in a map; case-insensitive and regex flags are tried in turn.
 */
function otherFlagFinder(ctx: AppContext): Promise<OtherFlagFinder> {
  let cache = finders.get(ctx);
  if (!cache) {
    cache = new CachedValue<OtherFlagFinder>(ctx.bus, ['challenges'], async () => {
      const exact = new Map<string, number[]>();
      const others: { challengeId: number; matches: FlagMatcher; pattern: string | null }[] = [];
      const bases: { challengeId: number; base: string }[] = [];
      const all = await listAllFlags(ctx);
      for (const [challengeId, flags] of all.flags) {
        if (all.perTeam.has(challengeId)) {
          // A base is nobody's flag: each competitor's is derived from it.
          if (flags[0]) bases.push({ challengeId, base: flags[0].content });
          continue;
        }
        for (const flag of flags) {
          if (flag.type === 'static') {
            const key = flag.content.trim();
            exact.set(key, [...(exact.get(key) ?? []), challengeId]);
          } else {
            try {
              others.push({
                challengeId,
                matches: flagMatcher(flag),
                pattern: flag.type === 'regex' ? flag.content : null,
              });
            } catch {
              // A pattern RE2 refuses matches nothing at the gate either.
            }
          }
        }
      }
      // NOTE: a wrong attempt is almost never another challenge's flag: every pattern is tried
      // at once first, and one by one only when one of them matches (to name its challenge).
      const anyPattern = anyPatternMatcher(others.flatMap((o) => (o.pattern === null ? [] : [o.pattern])));
      return {
        otherFlag: (text, sentTo) => {
          const trimmed = text.trim();
          const hit = exact.get(trimmed)?.find((id) => id !== sentTo);
          if (hit !== undefined) return hit;
          const somePattern = anyPattern === null || anyPattern(trimmed);
          return (
            others.find(
              (o) => o.challengeId !== sentTo && (o.pattern === null || somePattern) && o.matches(trimmed),
            )?.challengeId ?? null
          );
        },
        perTeamShaped: (text) =>
          bases.flatMap((b) => {
            const suffix = teamFlagSuffixOf(b.base, text);
            return suffix === null ? [] : [{ challengeId: b.challengeId, suffix }];
          }),
      };
    });
    finders.set(ctx, cache);
  }
  return cache.get();
}

const buffers = new WeakMap<AppContext, AttemptBuffer>();

function bufferOf(ctx: AppContext): AttemptBuffer {
  let buffer = buffers.get(ctx);
  if (!buffer) {
    buffer = new AttemptBuffer(ctx);
    buffers.set(ctx, buffer);
  }
  return buffer;
}

/**
 * Logs an attempt that did not solve (wrong, rate limited, already solved, no attempts left) for a
 * write within a second. Only a wrong attempt keeps its text, cut to 200 characters.
 */
export function logAttempt(
  ctx: AppContext,
  user: UserRow,
  attempt: { challengeId: number; result: AttemptResult; submitted?: string; address: string },
): void {
  bufferOf(ctx).push({
    at: ctx.clock.now().toISOString(),
    user: { id: user.id, username: user.username, teamId: user.team_id },
    challengeId: attempt.challengeId,
    result: attempt.result,
    submitted:
      attempt.result === 'wrong' ? (attempt.submitted ?? '').slice(0, integrityApi.SUBMITTED_TEXT_MAX) : null,
    address: attempt.address,
  });
}

/** Writes the correct attempt's row in the solve's own transaction. */
export async function logCorrectAttempt(trx: Executor, solveId: number, address: string): Promise<void> {
  await insertCorrectRowForSolve(trx, solveId, address);
}

/** How many attempts wait for their write in this process. */
export function pendingAttemptCount(ctx: AppContext): number {
  return buffers.get(ctx)?.size ?? 0;
}

/** Writes the pending attempts now (graceful close; tests). */
export function flushSubmissionLog(ctx: AppContext): Promise<void> {
  return buffers.get(ctx)?.flush() ?? Promise.resolve();
}

/**
 * Deletes attempts other than correct ones older than the retention setting (days; 0: never). The
 * setting is read from the settings store at each run, so a change applies without a restart.
 */
export async function pruneSubmissionLog(ctx: AppContext): Promise<number> {
  const days = await readStoredSetting(ctx, 'submissionRetentionDays');
  if (days === 0) return 0;
  const cutoff = new Date(ctx.clock.now().getTime() - days * 24 * 60 * 60 * 1000).toISOString();
  return deleteOldAttempts(ctx.database.db, cutoff);
}

/** Prunes at start and every hour; answers the stop function. */
export function schedulePruning(ctx: AppContext): () => void {
  const run = () =>
    void pruneSubmissionLog(ctx).catch((err: Error) =>
      ctx.log.error({ err: { message: err.message } }, 'submission log pruning failed'),
    );
  run();
  const timer = setInterval(run, PRUNE_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** Who reads the log: an admin, a monitor, or an author (who reads its own challenges' attempts). */
export type LogViewer = ChallengeActor & { role: Role };

/**
 * The filters as the viewer may use them: the text search only for an admin (issue 31), since a
 * wrong attempt may be another team's flag and a search would reveal it a character at a time.
 * An author's log holds only the attempts at the challenges it owns, as its challenge list does.
 */
async function toFilter(ctx: AppContext, f: SubmissionFilters, viewer: LogViewer): Promise<SubmissionFilter> {
  const owned = viewer.role === 'monitor' ? null : await workableChallengeIds(ctx.database.db, viewer);
  return {
    ...(owned !== null && { challengeIds: [...owned] }),
    user: f.user || undefined,
    team: f.team || undefined,
    challenge: f.challenge || undefined,
    result: f.result,
    q: (seesSubmittedText(viewer.role) && f.q) || undefined,
    from: f.from,
    to: f.to,
    ids: f.ids,
  };
}

/** A row as the viewer may read it: the submitted text (it may be a flag) for an admin only. */
function present(r: StoredSubmission, viewer: LogViewer): SubmissionRow {
  return {
    _id: String(r.id),
    time: r.created_at,
    username: r.username,
    team: r.team_name ?? 'None',
    challenge: r.challenge_name,
    result: r.result as SubmissionRow['result'],
    ...(r.result === 'wrong' && r.submitted !== null && seesSubmittedText(viewer.role)
      ? { submitted: r.submitted }
      : {}),
    address: r.address,
  };
}

/** A page of the submission log, newest first (the Submissions tab). */
export async function listSubmissions(
  ctx: AppContext,
  query: SubmissionQuery,
  viewer: LogViewer,
): Promise<SubmissionPage> {
  const db = ctx.database.db;
  const after = query.cursor === undefined ? undefined : await findSubmissionTime(db, Number(query.cursor));
  if (query.cursor !== undefined && !after) return { rows: [], next_cursor: null };
  const { rows, scannedTo } = await listSubmissionRows(
    db,
    ctx.database.dialect,
    await toFilter(ctx, query, viewer),
    {
      after: after ?? undefined,
      limit: query.limit + 1,
    },
  );
  const page = rows.slice(0, query.limit);
  // A text search that stopped at its budget goes on from where it stopped (the page may be short).
  const next =
    rows.length > query.limit ? String(page[page.length - 1]!.id) : scannedTo ? String(scannedTo.id) : null;
  return { rows: page.map((r) => present(r, viewer)), next_cursor: next };
}

const CSV_PAGE = 1000;
const CSV_COLUMNS = ['id', 'time', 'username', 'team', 'challenge', 'result', 'submitted', 'address'];

/**
 * Every row the filters match, newest first, as a CSV stream: read a thousand rows at a time by
 * the same keyset as the pages, so a million rows never sit in memory at once.
 */
export function exportSubmissionsCsv(
  ctx: AppContext,
  filters: SubmissionFilters,
  viewer: LogViewer,
): Readable {
  const db = ctx.database.db;
  async function* rows() {
    const filter = await toFilter(ctx, filters, viewer);
    let after: { created_at: string; id: number } | undefined;
    for (;;) {
      const { rows: page, scannedTo } = await listSubmissionRows(db, ctx.database.dialect, filter, {
        after,
        limit: CSV_PAGE,
      });
      for (const r of page) {
        const p = present(r, viewer);
        yield [r.id, p.time, p.username, p.team, p.challenge, p.result, p.submitted ?? '', p.address];
      }
      const last = page.length === CSV_PAGE ? page[page.length - 1]! : scannedTo;
      if (!last) return;
      after = { created_at: last.created_at, id: last.id };
    }
  }
  // Cells starting with = + - @ are prefixed with ' so a spreadsheet never runs a submitted text.
  const csv = stringify({
    header: true,
    columns: CSV_COLUMNS,
    cast: { string: (v) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v) },
  });
  const source = Readable.from(rows());
  source.on('error', (err) => csv.destroy(err));
  return source.pipe(csv);
}
