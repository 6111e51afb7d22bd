import { LOGIN_POPUP, OAUTH_BROADCAST_CHANNEL, type OAuthMessage, type PopupProvider } from '@ctf/contract';

/** Opens the provider login in a centred 500x600 popup (docs/product.md §2). */
export function openLoginPopup(provider: PopupProvider, link = false): Window | null {
  const { width, height } = LOGIN_POPUP;
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
  return window.open(
    `/api/auth/${provider}${link ? '?link=1' : ''}`,
    `login-${provider}`,
    `width=${width},height=${height},left=${left},top=${top},popup=yes`,
  );
}

function isOAuthMessage(data: unknown): data is OAuthMessage {
  const d = data as { type?: unknown } | null;
  return d !== null && typeof d === 'object' && (d.type === 'OAUTH_SUCCESS' || d.type === 'OAUTH_ERROR');
}

/**
 * Waits for the popup's outcome (docs/product.md §4): postMessage from our own origin only (others are
 * ignored with a console note), or the same-origin BroadcastChannel fallback (docs/product.md §11). The
 * listeners are removed after the first accepted message. Returns a function that stops listening.
 */
export function listenForLoginResult(onResult: (message: OAuthMessage) => void): () => void {
  const channel =
    typeof BroadcastChannel === 'function' ? new BroadcastChannel(OAUTH_BROADCAST_CHANNEL) : null;
  let done = false;
  const stop = () => {
    window.removeEventListener('message', onMessage);
    channel?.close();
  };
  const accept = (message: OAuthMessage) => {
    if (done) return;
    done = true;
    stop();
    onResult(message);
  };
  function onMessage(event: MessageEvent) {
    if (event.origin !== window.location.origin) {
      console.info(`Ignored a login message from another origin: ${event.origin}`);
      return;
    }
    if (isOAuthMessage(event.data)) accept(event.data);
  }
  window.addEventListener('message', onMessage);
  if (channel) {
    channel.onmessage = (event: MessageEvent) => {
      if (!isOAuthMessage(event.data)) return;
      channel.postMessage({ type: 'OAUTH_ACK' });
      accept(event.data);
    };
  }
  return stop;
}
