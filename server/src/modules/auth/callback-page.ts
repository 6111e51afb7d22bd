import type { OAuthMessage } from '@ctf/contract';
import { OAUTH_BROADCAST_CHANNEL } from '@ctf/contract';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The page the provider sends the popup back to. It carries its outcome in data attributes (no
 * inline script: the CSP forbids it) and loads POPUP_SCRIPT, which posts the outcome to the
 * opener with our own origin as the target, never '*'.
 */
export function callbackPage(message: OAuthMessage): string {
  const text =
    message.type === 'OAUTH_SUCCESS' ? 'Login successful. You can close this window.' : message.message;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Login</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body data-type="${message.type}" data-message="${escapeHtml(message.message ?? '')}">
<main style="font-family:system-ui,sans-serif;padding:2rem"><p id="status" role="status">${escapeHtml(text)}</p>
<p><a href="/login">Back to the login page</a></p></main>
<script src="/api/auth/popup.js"></script>
</body></html>`;
}

/**
 * Posts {type, message} to window.opener (same origin only). When a provider's strict COOP severed
 * the opener, it uses a same-origin BroadcastChannel and waits for the login page's acknowledgement;
 * with nobody listening (a popup opened as a plain tab) it goes on by itself.
 */
export const POPUP_SCRIPT = `(function () {
  var body = document.body;
  var msg = { type: body.getAttribute('data-type'), message: body.getAttribute('data-message') || undefined };
  var origin = window.location.origin;
  function fallback() {
    if (msg.type === 'OAUTH_SUCCESS') window.location.replace('/compete');
  }
  if (window.opener && !window.opener.closed) {
    try {
      window.opener.postMessage(msg, origin);
      window.close();
      return;
    } catch (e) { /* fall through to the channel */ }
  }
  if (typeof BroadcastChannel === 'function') {
    var channel = new BroadcastChannel(${JSON.stringify(OAUTH_BROADCAST_CHANNEL)});
    var acknowledged = false;
    channel.onmessage = function (event) {
      if (event.data && event.data.type === 'OAUTH_ACK') { acknowledged = true; channel.close(); window.close(); }
    };
    channel.postMessage(msg);
    setTimeout(function () { if (!acknowledged) { channel.close(); fallback(); } }, 800);
  } else {
    fallback();
  }
})();
`;
