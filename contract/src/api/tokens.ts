import { z } from 'zod';
import { IdInput, IdString, Timestamp, endpoint } from './common.js';
import { ROUTES } from './routes.js';
import { TOKEN_SCOPES } from './token-scopes.js';
import { API_TOKEN_LIMITS } from './tokens-rules.js';

export const TokenScopeSchema = z.enum(TOKEN_SCOPES);

/** A token as listed: never the token itself, which is shown once, when it is created. */
export const ApiToken = z.object({
  _id: IdString,
  name: z.string(),
  createdAt: Timestamp,
  /** Every token expires (at most API_TOKEN_LIMITS.maxLifetimeDays after it was made). */
  expiresAt: Timestamp,
  /** What it may do (api/token-scopes.ts). */
  scopes: z.array(TokenScopeSchema),
  /** null: never used. Updated at most once a minute, so it may lag by that much. */
  lastUsedAt: Timestamp.nullable(),
});
export type ApiToken = z.infer<typeof ApiToken>;

export const CreateApiTokenBody = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Token name is required')
    .max(API_TOKEN_LIMITS.nameMax, `Token name must be at most ${API_TOKEN_LIMITS.nameMax} characters`),
  /**
   * An ISO 8601 time in the future, at most maxLifetimeDays away; absent or null: defaultLifetimeDays
   * from now.
   */
  expiresAt: z.iso
    .datetime({ offset: true, error: 'expiresAt must be an ISO 8601 date and time' })
    .nullable()
    .optional(),
  /** Absent: DEFAULT_TOKEN_SCOPES. Never more than the user's role allows (scopesForRole). */
  scopes: z.array(TokenScopeSchema).min(1, 'Choose at least one scope').max(TOKEN_SCOPES.length).optional(),
});
export type CreateApiTokenBody = z.input<typeof CreateApiTokenBody>;

export const createToken = endpoint({
  ...ROUTES.tokens.createToken,
  body: CreateApiTokenBody,
  response: z.object({ _id: IdString, token: z.string() }),
});

export const listTokens = endpoint({
  ...ROUTES.tokens.listTokens,
  body: undefined,
  response: z.array(ApiToken),
});

export const deleteToken = endpoint({
  ...ROUTES.tokens.deleteToken,
  body: z.object({ token_id: IdInput }),
  response: z.object({ message: z.string() }),
});
