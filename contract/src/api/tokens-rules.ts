/**
 * Personal API tokens: the limits and the format, without zod, for the server and the
 * web alike (the profile page counts characters and tokens with these).
 */
export const API_TOKEN_LIMITS = {
  /** A token's name: what the user calls it ("discord bot", "ci sync"). */
  nameMax: 50,
  /** Live tokens one user may hold at once; a revoked or expired one frees its place. */
  perUser: 20,
  /** A token made without an expiry ends this many days after it was made. */
  defaultLifetimeDays: 90,
  /** No token lives longer than this (an expiry further away is refused). */
  maxLifetimeDays: 365,
} as const;

/**
 * Every token starts with this, so secret scanners (GitHub's, gitleaks) can recognise one that
 * leaked into a repository or a log, and the server knows a personal token from a configured one
 * (ADMIN_API_TOKEN, METRICS_TOKEN) before looking anything up.
 */
export const API_TOKEN_PREFIX = 'ctf_';
