import { z } from 'zod';
import { MessageResponse, endpoint } from './common.js';
import { ROUTES } from './routes.js';
import { USERNAME_MAX_LENGTH } from '../rules/constants.js';

export {
  LOGIN_METHODS,
  OAUTH_BROADCAST_CHANNEL,
  OAUTH_PROVIDERS,
  POPUP_PROVIDERS,
  orderLoginMethods,
  type LoginMethod,
  type OAuthMessage,
  type OAuthProvider,
  type PopupProvider,
} from './oauth.js';

export const authenticated = endpoint({
  ...ROUTES.auth.authenticated,
  body: undefined,
  response: MessageResponse,
});

export const adminAuthenticated = endpoint({
  ...ROUTES.auth.adminAuthenticated,
  body: undefined,
  response: MessageResponse,
});

export const logout = endpoint({
  ...ROUTES.auth.logout,
  body: undefined,
  response: MessageResponse,
});

/** Local sign-in for a trial on a loopback origin with no OAuth provider (docs/product.md §11). */
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
  ...ROUTES.auth.localLogin,
  body: LocalLoginBody,
  response: MessageResponse,
});
