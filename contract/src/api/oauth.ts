/** The OAuth sign-in's zod-free parts, shared by the server, the web and api/auth.ts. */
export const OAUTH_PROVIDERS = ['discord', 'github'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/** What the OAuth callback page posts to window.opener (docs/product.md §4). */
export type OAuthMessage =
  { type: 'OAUTH_SUCCESS'; message?: string } | { type: 'OAUTH_ERROR'; message: string };
export const OAUTH_BROADCAST_CHANNEL = 'ctf-oauth';

/** The ways in that open a provider's page in a popup (each has /api/auth/NAME and its callback). */
export const POPUP_PROVIDERS = ['discord', 'github', 'oidc'] as const;
export type PopupProvider = (typeof POPUP_PROVIDERS)[number];

/**
 * Every way in a site may offer, in the default order of the login page: the OAuth providers, the
 * OpenID Connect provider (a university's single sign-on), e-mail and password, and the local trial.
 */
export const LOGIN_METHODS = ['discord', 'github', 'oidc', 'email', 'local'] as const;
export type LoginMethod = (typeof LOGIN_METHODS)[number];

/**
 * The configured ways in, in the admin's order: those the order names first, then any configured
 * one it leaves out, in the default order (a configured way in is never hidden by the order).
 */
export function orderLoginMethods(
  configured: readonly LoginMethod[],
  order: readonly LoginMethod[],
): LoginMethod[] {
  const named = order.filter((m, i) => configured.includes(m) && order.indexOf(m) === i);
  return [...named, ...LOGIN_METHODS.filter((m) => configured.includes(m) && !named.includes(m))];
}
