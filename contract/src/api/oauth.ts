/** The OAuth sign-in's zod-free parts, shared by the server, the web and api/auth.ts. */
export const OAUTH_PROVIDERS = ['discord', 'github'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/** What the OAuth callback page posts to window.opener (docs/product.md §4). */
export type OAuthMessage =
  { type: 'OAUTH_SUCCESS'; message?: string } | { type: 'OAUTH_ERROR'; message: string };
export const OAUTH_BROADCAST_CHANNEL = 'ctf-oauth';
