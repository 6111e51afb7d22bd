/** Business constants of docs/product.md §9 and §12/§14: the one place each number lives. */

export const MAX_TEAM_SIZE = 4;
export const CHALLENGE_PAGE_SIZE = 20;
export const DESCRIPTION_PREVIEW_LENGTH = 100;
/**
 * A card's description preview is the description's visible text: without these elements' text,
 * with a space after each of the block elements (the web's DOMParser and the server's renderer
 * read the HTML alike with these lists).
 */
export const PREVIEW_NO_TEXT_ELEMENTS = ['script', 'style', 'noscript', 'template'] as const;
export const PREVIEW_BLOCK_ELEMENTS = [
  'p',
  'div',
  'br',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'tr',
  'td',
  'th',
  'pre',
  'blockquote',
  'section',
  'article',
  'ul',
  'ol',
  'table',
] as const;

export const CATEGORIES = [
  'Web Exploitation',
  'Cryptography',
  'Reverse Engineering',
  'Forensics',
  'Steganography',
  'Binary Exploitation',
  'General',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const DIFFICULTIES = ['Simple', 'Easy', 'Medium', 'Hard', 'Extreme'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const POINTS_BY_DIFFICULTY: Readonly<Record<Difficulty, number>> = {
  Simple: 50,
  Easy: 100,
  Medium: 200,
  Hard: 300,
  Extreme: 400,
};

/** Points are derived from difficulty on the server; whatever a client sends is ignored. */
export function pointsFor(difficulty: Difficulty): number {
  return POINTS_BY_DIFFICULTY[difficulty];
}

export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const RATING_LABELS: Readonly<Record<number, string>> = {
  1: 'Poor',
  2: 'Fair',
  3: 'Good',
  4: 'Very Good',
  5: 'Excellent',
};
export const MIN_RATING_FILTER_OPTIONS = [
  { value: 4, label: '4.0 Excellent' },
  { value: 3, label: '3.0 Good' },
  { value: 2, label: '2.0 Fair' },
  { value: 1, label: '1.0' },
  { value: 0, label: '0.0 Any' },
] as const;

/** Wrong flags allowed per user and challenge within WRONG_FLAG_WINDOW_MS (docs/product.md §14). */
export const WRONG_FLAG_LIMIT = 10;
export const WRONG_FLAG_WINDOW_MS = 60_000;

export const USERNAME_MAX_LENGTH = 39;
export const TEAM_NAME_MAX_LENGTH = 32;
export const CHALLENGE_NAME_MAX_LENGTH = 100;
/** Announcements (issue 15): a title and a Markdown body. */
export const ANNOUNCEMENT_TITLE_MAX_LENGTH = 120;
/** An award (issue 31): a whole number of points, not 0, at most this far from 0 either way. */
export const AWARD_POINTS_MAX = 100_000;
/** An award's reason, shown to the player: 1 to this many characters. */
export const AWARD_REASON_MAX_LENGTH = 200;
export const ANNOUNCEMENT_BODY_MAX_LENGTH = 10_000;
export const CHALLENGE_AUTHOR_MAX_LENGTH = 100;
export const CHALLENGE_DESCRIPTION_MAX_LENGTH = 20_000;
export const FLAG_MAX_LENGTH = 200;

/** How a flag is compared with a submission (after trimming both): issue 17. */
export const FLAG_TYPES = ['static', 'case_insensitive', 'regex'] as const;
export type FlagType = (typeof FLAG_TYPES)[number];
/** Flags per challenge, and the longest regex pattern an author may save. */
export const FLAGS_PER_CHALLENGE_MAX = 20;
export const FLAG_PATTERN_MAX_LENGTH = 500;
/** Wrong attempts an author may allow (max_attempts), at most. */
export const MAX_ATTEMPTS_LIMIT = 1000;
/** Hints per challenge, their title and Markdown lengths, and the highest cost. */
export const HINTS_PER_CHALLENGE_MAX = 20;
export const HINT_TITLE_MAX_LENGTH = 100;
export const HINT_CONTENT_MAX_LENGTH = 5_000;
export const HINT_COST_MAX = 10_000;
export const PREREQUISITES_MAX = 20;
export const FILE_NAME_MAX_LENGTH = 200;

/**
 * challenge.yml import (issue 17, docs/challenge-archives.md): what an archive (a ZIP upload, or a
 * folder given to the CLI) may hold. Sizes are counted while inflating, not taken from the
 * archive's own claims. The description limit is CHALLENGE_DESCRIPTION_MAX_LENGTH (the Markdown
 * as written and the rendered HTML); each challenge's files are packed into one ZIP that must fit
 * UPLOAD_MAX_BYTES like any upload.
 */
export const CHALLENGE_ARCHIVE_LIMITS = {
  /** The uploaded ZIP itself. */
  maxArchiveBytes: 100 * 1024 * 1024,
  /** Entries (files and folders) in the archive. */
  maxEntries: 2_000,
  /** All entries together, uncompressed. */
  maxTotalBytes: 200 * 1024 * 1024,
  /** One challenge.yml. */
  maxYamlBytes: 256 * 1024,
  /** YAML aliases expanded per challenge.yml (yaml's maxAliasCount): an alias bomb stops here. */
  maxYamlAliases: 100,
  /**
   * Keys in one challenge.yml, and how deeply it nests (indentation, `-`/`?`/`:` indicators and
   * flow brackets), counted by a linear scan before it is parsed: the parser's cost grows faster
   * than the text with either (32,000 keys held a dry run 35 s). A challenge needs a few dozen.
   */
  maxYamlKeys: 1_000,
  maxYamlNesting: 32,
  /** One entry, uncompressed, counted while inflating: what a dry run holds at most per file. */
  maxEntryBytes: 32 * 1024 * 1024,
  /** Challenges in one archive. */
  maxChallenges: 500,
  /** Folder depth of an entry's path. */
  maxDepth: 16,
  /**
   * One import or dry run at a time per server process (its memory is bounded by one archive); a
   * second waits this long for its turn, then answers 429 CHALLENGE_IMPORT_BUSY.
   */
  importWaitMs: 3_000,
} as const;

/** The 429 of an import that found another running in its process for importWaitMs. */
export const CHALLENGE_IMPORT_BUSY = 'Another import is running; try again in a minute.';

/** docs/product.md §9 UI constants. */
export const LOGIN_POPUP = { width: 500, height: 600 } as const;
export const CHALLENGE_HELP_PORT = 2530;
export const DELAYS_MS = {
  afterTeamAction: 200,
  afterTeamCreate: 300,
  afterEditSuccess: 1500,
  copyFeedback: 1200,
  countdownTick: 1000,
} as const;
export const PIE_CHART = {
  width: 400,
  height: 400,
  outerRadius: 100,
  colors: ['#0088FE', '#00C49F', '#FFBB28', '#FF8042', '#8884D8', '#82CA9D'],
} as const;
export const LEADERBOARD_SCROLL_HEIGHT_PX = 400;
/**
 * A new site's prize text: none. The home page shows the organisers' own sentence only when they
 * have written one (Settings, Texts), and never promises prizes they did not enter.
 */
export const DEFAULT_PRIZE_TEXT = '';
export const KALI_REQUIREMENTS = {
  ramMinimumGb: 4,
  ramRecommendedGb: 8,
  diskGb: 25,
  cpuCores: '2+',
  videoMemoryMb: 128,
} as const;

/**
 * Paged leaderboard answers (`GET /api/info/leaderboard?limit=N&offset=M`, `?around=me`, `?q=`):
 * at most 500 rows a page, 100 when the page size is not given; search text at most 100
 * characters. The answer's headers carry what the slice leaves out.
 */
export const LEADERBOARD_PAGE = {
  maxLimit: 500,
  defaultLimit: 100,
  maxOffset: 10_000_000,
  maxSearchLength: 100,
  /** How many competitors the whole board (or the search) holds. */
  totalHeader: 'X-Total-Count',
  /** The 1-based rank of the caller's competitor (team, or the user when teamless); absent when off the board. */
  callerRankHeader: 'X-Rank-Of-Caller',
} as const;

/**
 * Calm refreshes of an open leaderboard (issue 20): when the board changes, a page refreshes at
 * most once per interval, after a random extra delay up to jitter (so open pages do not all ask
 * at the same moment), and never while its tab is hidden.
 */
export const LEADERBOARD_REFRESH = { minIntervalMs: 5_000, jitterMs: 2_500 } as const;

/** The score graph shows the best GRAPH_TOP_DEFAULT competitors unless ?top= asks for up to GRAPH_TOP_MAX. */
export const GRAPH_TOP_DEFAULT = 10;
export const GRAPH_TOP_MAX = 50;

/** Divisions (issue 19): how many a site may define and how long their names and domains are. */
export const DIVISION_LIMITS = {
  maxDivisions: 20,
  nameMax: 40,
  maxDomains: 20,
  domainMax: 253,
} as const;

/**
 * Official solutions and writeups (issue 32, docs/decisions/0013-after-the-event.md). A solution's
 * Markdown (rendered through the one Markdown path) and its visibility: never to players
 * ('hidden'), once the caller's competitor solved the challenge ('solved'), or once the event
 * has ended ('after_end', practice mode included).
 */
export const SOLUTION_VISIBILITIES = ['hidden', 'solved', 'after_end'] as const;
export type SolutionVisibility = (typeof SOLUTION_VISIBILITIES)[number];
export const SOLUTION_CONTENT_MAX_LENGTH = 20_000;
/** Stored files (the Upload tab's) a solution may list. */
export const SOLUTION_FILES_MAX = 10;
/** A writeup file (PDF or Markdown), counted while it streams in: reading stops past it. */
export const WRITEUP_MAX_BYTES = 5 * 1024 * 1024;
/** A writeup link: https only, at most this long. */
export const WRITEUP_URL_MAX_LENGTH = 2_000;
/** The admin's note to players about writeups. */
export const WRITEUP_NOTE_MAX_LENGTH = 2_000;
/** The longest download name a writeup file keeps (after sanitising). */
export const WRITEUP_NAME_MAX_LENGTH = 100;
