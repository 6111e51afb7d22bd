/**
 * NOTE: a test that loads jsdom imports this first (the server itself no longer loads jsdom: its
 * sanitiser is sanitize-html). jsdom ships undici 7,
 * and when it loads before Node's own fetch machinery it installs its Agent as the process-wide
 * fetch dispatcher. Node 20's built-in fetch then refuses every request that sets Content-Length
 * itself ("invalid content-length header"), which is exactly what the OAuth code exchange does:
 * logins would fail. Creating a Headers object loads Node's undici, which registers its own
 * dispatcher first; jsdom then keeps it (and is built to work with it).
 */
new Headers();

export {};
