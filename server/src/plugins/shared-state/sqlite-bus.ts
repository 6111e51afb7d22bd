import SQLite from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { LocalBus, type InvalidationBus, type Topic } from '../../lib/invalidation.js';

/** How often other processes' publications are looked for when no request asks. */
export const SQLITE_POLL_MS = 50;
/** How long a process that finds a live sibling waits before it serves. */
export const STARTUP_WAIT_MS = 4 * SQLITE_POLL_MS;
/** How often a process says it is alive, and for how long a silent one still counts as a sibling. */
const HEARTBEAT_MS = 1000;
const ALIVE_MS = 5000;
/** Publications older than this are deleted; a process that slept through them drops every cache. */
const KEEP_EVENTS_MS = 60_000;

/** The bus's own file beside the database: ctf.sqlite -> ctf-events.sqlite. */
export function eventsFileFor(databaseFile: string): string {
  return databaseFile.replace(/(\.sqlite3?|\.db)?$/, '-events$1');
}

/**
 * Invalidation between processes sharing one SQLite file (WORKERS > 1, or several servers on one
 * DATA_DIR). Every publication is also written, with its topic, to a small file of its own beside
 * the database; the other processes read the rows they have not seen and publish those topics
 * locally, so a correct flag elsewhere is applied as the new solve it is rather than dropping
 * every cache, and writes that change no cached data (the wrong-flag counter) cost readers nothing.
 *
 * The file is separate so that writing a publication never waits for, or joins, an open
 * transaction on the database (publications follow their commit). It holds signals only: deleting
 * it loses nothing.
 *
 * Checking is one `PRAGMA data_version` (~7 µs: it changes when another connection commits to the
 * events file). A process alone on the file skips it per request and polls every 50 ms; once it
 * knows of a sibling (heartbeats, or a publication from another process) it checks at the start of
 * every request (sync), so the next request after another process's write sees it. A process that
 * finds a live sibling at start waits a few polls before serving, so the sibling knows of it first.
 */
export class SqliteBus implements InvalidationBus {
  private readonly local = new LocalBus();
  private readonly origin = randomUUID();
  private readonly events: SQLite.Database;
  private readonly statements: {
    dataVersion: SQLite.Statement;
    record: SQLite.Statement;
    since: SQLite.Statement;
    lastId: SQLite.Statement;
    beat: SQLite.Statement;
    othersAlive: SQLite.Statement;
    prune: SQLite.Statement;
    forget: SQLite.Statement;
    leave: SQLite.Statement;
  };
  private readonly timers: NodeJS.Timeout[] = [];
  private version: number;
  private lastSeenId: number;
  private siblings: boolean;
  /** Publications the events file refused (busy beyond its timeout), written at the next beat. */
  private readonly unsent = new Set<Topic>();

  /** Opens the events file of a database file; resolves once siblings can know of this process. */
  static async open(databaseFile: string, topics: readonly Topic[]): Promise<SqliteBus> {
    const bus = new SqliteBus(eventsFileFor(databaseFile), topics);
    // Several polls' time, so a sibling busy with a long task still reads the announcement first.
    if (bus.siblings) await new Promise((resolve) => setTimeout(resolve, STARTUP_WAIT_MS));
    return bus;
  }

  private constructor(
    file: string,
    private readonly topics: readonly Topic[],
  ) {
    this.events = new SQLite(file);
    this.events.pragma('journal_mode = WAL');
    // NORMAL: in WAL mode a power loss may drop the last signals (every process's caches go with
    // it) but never corrupts the file, so the next start opens it.
    this.events.pragma('synchronous = NORMAL');
    this.events.pragma('busy_timeout = 2000');
    this.events.exec(`
      create table if not exists events (
        id integer primary key autoincrement,
        origin text not null,
        topic text,
        at integer not null
      );
      create table if not exists processes (origin text primary key, seen_at integer not null);
    `);
    this.statements = {
      dataVersion: this.events.prepare('pragma data_version').pluck(),
      record: this.events.prepare('insert into events (origin, topic, at) values (?, ?, ?)'),
      since: this.events.prepare('select id, origin, topic from events where id > ? order by id'),
      lastId: this.events.prepare('select coalesce(max(id), 0) from events').pluck(),
      beat: this.events.prepare(
        'insert into processes (origin, seen_at) values (?, ?) on conflict (origin) do update set seen_at = excluded.seen_at',
      ),
      othersAlive: this.events
        .prepare('select count(*) from processes where origin <> ? and seen_at > ?')
        .pluck(),
      prune: this.events.prepare('delete from events where at < ?'),
      forget: this.events.prepare('delete from processes where seen_at < ?'),
      leave: this.events.prepare('delete from processes where origin = ?'),
    };
    this.version = Number(this.statements.dataVersion.get());
    this.lastSeenId = Number(this.statements.lastId.get());
    this.heartbeat();
    this.siblings = Number(this.statements.othersAlive.get(this.origin, Date.now() - ALIVE_MS)) > 0;
    // Announce: a process already running learns of this one at its next poll.
    this.statements.record.run(this.origin, null, Date.now());
    this.timers.push(
      setInterval(() => this.poll(), SQLITE_POLL_MS),
      setInterval(() => this.heartbeat(), HEARTBEAT_MS),
    );
    for (const t of this.timers) t.unref();
  }

  /** Whether another live process shares the file (then every request checks for its writes). */
  get hasSiblings(): boolean {
    return this.siblings;
  }

  private heartbeat(): void {
    try {
      const at = Date.now();
      for (const topic of this.unsent) {
        this.statements.record.run(this.origin, topic, at);
        this.unsent.delete(topic);
      }
      this.statements.beat.run(this.origin, at);
      this.statements.prune.run(at - KEEP_EVENTS_MS);
      this.statements.forget.run(at - KEEP_EVENTS_MS);
    } catch {
      // Busy for longer than the timeout: the next beat tries again.
    }
  }

  private poll(): void {
    let rows: { id: number; origin: string; topic: Topic | null }[];
    try {
      const v = Number(this.statements.dataVersion.get());
      if (v === this.version) return;
      // The version is taken before the rows: a row written in between moves it again.
      this.version = v;
      rows = this.statements.since.all(this.lastSeenId) as typeof rows;
    } catch {
      return;
    }
    const changed = new Set<Topic>();
    let gap = false;
    for (const row of rows) {
      // Ids are consecutive (AUTOINCREMENT, one insert per statement); a hole is deleted rows.
      if (row.id !== this.lastSeenId + 1) gap = true;
      this.lastSeenId = row.id;
      if (row.origin === this.origin) continue;
      this.siblings = true;
      if (row.topic) changed.add(row.topic);
    }
    // Rows were deleted before this process read them (it was stopped for a minute): it cannot
    // tell what changed, so everything did.
    for (const topic of gap ? this.topics : changed) this.local.publish(topic);
  }

  /**
   * The events file is read at the start of every request (sync), on the same machine: there is no
   * channel to lose, so what others wrote is always seen by the next request.
   */
  hearsOthers(): boolean {
    return true;
  }

  sync(): void {
    if (this.siblings) this.poll();
  }

  publish(topic: Topic): void {
    this.local.publish(topic);
    try {
      this.statements.record.run(this.origin, topic, Date.now());
    } catch {
      // Busy beyond its timeout: the local caches are right; the others hear of it at the next beat.
      this.unsent.add(topic);
    }
  }

  subscribe(listener: (topic: Topic) => void): () => void {
    return this.local.subscribe(listener);
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    try {
      this.statements.leave.run(this.origin);
    } catch {
      // ignore: the row expires on its own
    }
    this.events.close();
    await this.local.close();
  }
}
