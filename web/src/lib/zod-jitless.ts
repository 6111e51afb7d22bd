/**
 * The web's `zod` (vite.config.ts aliases the bare 'zod' import here, for the web and the
 * contract it bundles). Zod's fast path probes for `new Function` when a schema is built, which
 * the site's Content-Security-Policy (no 'unsafe-eval') refuses, so every page load would log a
 * CSP violation. Jitless mode, set before any schema is built, skips the probe. The server keeps
 * the fast path.
 */
import { config } from 'zod/v4';

config({ jitless: true });

export * from 'zod/v4';
export { default } from 'zod/v4';
