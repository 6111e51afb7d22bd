/**
 * A refusal a service makes on purpose. The one error handler turns it into the status and the
 * docs/product.md body shape ({message} or {acknowledge, message}) with its stable code.
 */
export type DomainErrorCode =
  | 'bad_input'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'team_full'
  | 'name_taken'
  | 'already_solved'
  | 'too_large'
  | 'rate_limited'
  | 'site_inactive'
  | 'banned'
  | 'no_attempts_left'
  | 'locked'
  | 'unavailable';

/** Each refusal's HTTP status (the API reference lists them). */
export const DOMAIN_ERROR_STATUS: Readonly<Record<DomainErrorCode, number>> = {
  bad_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  team_full: 409,
  name_taken: 409,
  already_solved: 409,
  too_large: 413,
  rate_limited: 429,
  site_inactive: 403,
  banned: 403,
  no_attempts_left: 403,
  locked: 403,
  unavailable: 503,
};

/**
 * NOTE: a refusal is an answer, not a fault: it captures no stack (nothing logs one, and V8 takes a
 * few microseconds for each), which the frequent refusals (already solved, too many wrong flags)
 * paid at every request.
 */
export class DomainError extends Error {
  readonly statusCode: number;
  readonly code: DomainErrorCode;
  /** Seconds until a retry may succeed (sent as Retry-After). */
  readonly retryAfterSeconds?: number;
  constructor(code: DomainErrorCode, message: string, retryAfterSeconds?: number) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'DomainError';
    this.code = code;
    this.statusCode = DOMAIN_ERROR_STATUS[code];
    if (retryAfterSeconds !== undefined) this.retryAfterSeconds = retryAfterSeconds;
  }
}

export const badInput = (message: string) => new DomainError('bad_input', message);
export const notFound = (message: string) => new DomainError('not_found', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const conflict = (message: string) => new DomainError('conflict', message);
