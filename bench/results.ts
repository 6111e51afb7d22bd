import type { ArchiveRun } from './archive.js';
import type { BoardCost } from './board-cost.js';
import type { LoadResult, ScenarioName } from './load.js';
import type { RefreshTransfer } from './pages.js';
import type { RushRun } from './rush-leg.js';
import type { EventSize } from './seed.js';
import type { StreamsAnswer } from './streams.js';

// What a run is asked to do and what it measured: the shape report.ts writes to RESULTS.md.

export interface BenchOptions {
  databases: ('sqlite' | 'postgres')[];
  size: EventSize;
  /** The doubled event for the cost-growth check; skipped when null. */
  doubleSize: EventSize | null;
  durationSec: number;
  connections: number[];
  /** The scenarios to run on each database (every one for the recorded results). */
  scenarios: ScenarioName[];
  /** Also run the mixed profile with WORKERS=2. */
  workers: boolean;
  /** Live event streams held open in the stream leg (issue 15, SQLite); 0 skips the leg. */
  streams: number;
  /** Also run the dynamic leg: half the challenges dynamic (issue 16, SQLite). */
  dynamic: boolean;
  /**
   * The instances leg (issue 30, SQLite): 'auto' runs it when a Docker engine with the test image
   * answers (else one line says it was skipped), 'required' fails without one.
   */
  instances: 'off' | 'auto' | 'required';
  /** Build the static archive of the seeded event (issue 32, SQLite; bench/archive.ts). */
  archive: boolean;
  /** Measure what a correct flag costs the scoreboard on every seeded event (board-cost.ts). */
  boardCost: boolean;
  /**
   * The start-of-event rush (bench/rush-leg.ts): `players` signing in and playing, arriving over
   * `spreadSec`; in the image when an engine answers ('auto') or on this machine; null skips it.
   */
  rush: { players: number; spreadSec: number; where: 'auto' | 'machine' } | null;
  log?: (line: string) => void;
}

/** The submission log's rows after a database's scenarios, by result (issue 18). */
export type LoggedAttempts = Record<string, number>;

/** The stream leg (issue 15): one process with many open live event streams. */
export interface StreamsRun {
  requested: number;
  opened: Extract<StreamsAnswer, { type: 'opened' }>;
  /** The server's RSS (MB) before the streams opened, and with them open and idle. */
  rssBeforeMb: number;
  rssOpenMb: number;
  /** The process's first announcement, before the streams open (its first admin write). */
  firstAnnouncement: Extract<StreamsAnswer, { type: 'announced' }>;
  /** Each announcement with the streams open: POST to the last stream receiving it. */
  announcements: Extract<StreamsAnswer, { type: 'announced' }>[];
  /** The mixed profile on the same process, without the streams and then with them open. */
  mixedWithout: LoadResult;
  mixedWith: LoadResult;
  /** Streams still open after the load (none may be dropped). */
  openAfter: number;
  closedByServer: number;
  /** The server's peak RSS over the leg (VmHWM of its process). */
  peakRssMb: number;
}

/** The instances leg (issue 30): the leaderboard with no instance starting, then with 20 starting. */
export interface InstancesRun {
  teams: number;
  idle: LoadResult;
  starting: LoadResult;
  /** Competitors whose instance reached 'running' (its port answered) within 60 s. */
  answered: number;
  /** Of those, how many printed their flag when read over TCP. */
  withFlag: number;
  /** ms from the Starts being sent to the first and the last instance running (NaN: not all). */
  firstAnsweredMs: number;
  allAnsweredMs: number;
  /** ms from the Starts to the end of the measurement taken while they started. */
  measuredMs: number;
  errors: string[];
  /** The answers to the players' Stop, by status. */
  stopStatuses: Record<string, number>;
  /** Containers and networks with the site's label right after the Stops (must be 0). */
  leftContainers: number;
  leftNetworks: number;
  /** INSTANCE_WARM_ENTRIES of the run (entry points made ahead; 0: every start cold). */
  warmEntries: number;
  /** ms the janitor took to make them, before the measurements (NaN: none wanted). */
  warmReadyMs: number;
}

/** The dynamic leg (issue 16): the base event with half the challenges dynamic. */
export interface DynamicRun {
  results: LoadResult[];
  boardCost: BoardCost | null;
}

export interface DatabaseRun {
  database: 'sqlite' | 'postgres';
  startupMs: number;
  peakRssMb: number;
  results: LoadResult[];
  solvesRecorded: number;
  correctAnswers: number;
  workers2Mixed: LoadResult | null;
  double: LoadResult[];
  /** One leaderboard page's refresh, measured with the leaderboard-page scenario. */
  refresh: RefreshTransfer | null;
  /** 'Incorrect Flag!' answers acknowledged in the flag scenarios. */
  wrongAnswers: number;
  /** The submission log after the scenarios (null when it was not counted). */
  logged: LoggedAttempts | null;
  /** What a correct flag costs the scoreboard on this event, and on the doubled one (SQLite). */
  boardCost: BoardCost | null;
  doubleBoardCost: BoardCost | null;
  streams: StreamsRun | null;
  instances: InstancesRun | null;
  /** The static archive of the seeded event (SQLite), built before the load. */
  archive: ArchiveRun | null;
}

export interface BenchReport {
  date: string;
  machine: string;
  hello: LoadResult[];
  runs: DatabaseRun[];
  dynamic: DynamicRun | null;
  rush: RushRun | null;
  options: BenchOptions;
}
