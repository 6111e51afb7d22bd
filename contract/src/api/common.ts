import { z } from 'zod';
import { markdownBudgetProblem } from '../rules/markdown-budget.js';

/** How an endpoint is described once, for the server's route and the web's fetcher alike. */
export interface Endpoint<
  M extends 'GET' | 'POST' = 'GET' | 'POST',
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  method: M;
  path: string;
  body: B;
  response: R;
  /** The query string's schema, for GETs that filter or page (every value arrives as text). */
  query?: z.ZodType;
  /** The answer's media type when it is not JSON (a CSV or ZIP download): the API reference's. */
  produces?: string;
  /** A body sent as multipart/form-data (a file upload), which has no JSON schema. */
  consumes?: 'multipart/form-data';
  /**
   * A GET that acts (ends a session, drops the caches, writes the audit log or hands out an
   * export): the server answers it only to a same-origin fetch or a top-level navigation, never to
   * an image, a frame or another site (docs/security.md).
   */
  acts?: true;
}

export function endpoint<
  M extends 'GET' | 'POST',
  B extends z.ZodType | undefined,
  R extends z.ZodType,
  Q extends z.ZodType,
>(e: Endpoint<M, B, R> & { query: Q }): Endpoint<M, B, R> & { query: Q };
export function endpoint<M extends 'GET' | 'POST', B extends z.ZodType | undefined, R extends z.ZodType>(
  e: Endpoint<M, B, R>,
): Endpoint<M, B, R>;
export function endpoint(e: Endpoint): Endpoint {
  return e;
}

/**
 * A page cursor: the opaque text the previous page answered as next_cursor (the id of its last
 * row). Lists page newest first by id, so a cursor never skips or repeats a row as rows arrive.
 */
export const Cursor = z.string().regex(/^[1-9][0-9]{0,9}$/, 'must be a cursor from the previous page');

/** How many rows a page holds: 1..200, 50 when absent. */
export const PageLimit = z
  .string()
  .regex(/^[0-9]{1,3}$/, 'must be a number from 1 to 200')
  .transform((v) => Number(v))
  .pipe(z.number().int().min(1, 'must be a number from 1 to 200').max(200, 'must be a number from 1 to 200'))
  .optional()
  .default(50);

/** `_id` values are strings of positive integers; input also accepts the number itself. */
export const IdString = z.string();
/**
 * The largest id: ids are PostgreSQL `integer` (serial) columns, where a larger number in a query
 * is an error rather than "no such row", so it is refused at the door on every database.
 */
export const MAX_ID = 2_147_483_647;
export const IdInput = z
  .union([z.string().regex(/^[1-9][0-9]{0,9}$/, 'must be an id'), z.number().int().positive()])
  .transform((v) => Number(v))
  .pipe(z.number().max(MAX_ID, 'must be an id'));

export const MessageResponse = z.object({ message: z.string(), code: z.string().optional() });
export type MessageResponse = z.infer<typeof MessageResponse>;

export const AckResponse = z.object({
  acknowledge: z.boolean(),
  message: z.string(),
  code: z.string().optional(),
});
export type AckResponse = z.infer<typeof AckResponse>;

/** Error bodies keep docs/product.md's shapes; `code` is the stable outcome the client may act on. */
export const ErrorResponse = z.object({
  message: z.string(),
  code: z.string().optional(),
  acknowledge: z.boolean().optional(),
});

/** ISO 8601 UTC timestamp string. */
export const Timestamp = z.string();

/**
 * A zod refinement that refuses Markdown nested past MARKDOWN_MAX_NESTING before anything parses
 * it; `label` starts the message ('' where the field's name already does).
 */
export function markdownWithinBudget(label: string) {
  return (value: string, ctx: z.RefinementCtx): void => {
    const problem = markdownBudgetProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: label ? `${label} ${problem}` : problem });
  };
}
