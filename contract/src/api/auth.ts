import { z } from 'zod';
import { MessageResponse, endpoint } from './common.js';
import { USERNAME_MAX_LENGTH } from '../rules/constants.js';

export const OAUTH_PROVIDERS = ['discord', 'github'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

export const authenticated = endpoint({
  method: 'GET',
  path: '/api/authenticated',
  body: undefined,
  response: MessageResponse,
});

export const adminAuthenticated = endpoint({
  method: 'GET',
  path: '/api/admin/authenticated',
  body: undefined,
  response: MessageResponse,
});

export const logout = endpoint({
  method: 'GET',
  path: '/api/auth/logout',
  body: undefined,
  response: MessageResponse,
});

/** Local sign-in for a trial on a loopback origin with no OAuth provider (DESIGN.md §3). */
export const LocalLoginBody = z.object({
  username: z
    .string()
    .trim()
    .min(1, 'Username is required')
    .max(USERNAME_MAX_LENGTH, `Username must be at most ${USERNAME_MAX_LENGTH} characters`)
    .regex(/^[\p{L}\p{N}_.-]+$/u, 'Username may contain letters, digits, _ . and - only'),
  admin: z.boolean().optional().default(false),
});
export const localLogin = endpoint({
  method: 'POST',
  path: '/api/auth/local',
  body: LocalLoginBody,
  response: MessageResponse,
});

/** What the OAuth callback page posts to window.opener (SPEC.md §4). */
export type OAuthMessage = { type: 'OAUTH_SUCCESS'; message?: string } | { type: 'OAUTH_ERROR'; message: string };
export const OAUTH_BROADCAST_CHANNEL = 'ctf-oauth';
