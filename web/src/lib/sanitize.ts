import { DESCRIPTION_HTML_POLICY, NEW_TAB_LINK_REL, isApiImageSource } from '@ctf/contract';
import DOMPurify, { type DOMPurify as Purifier } from 'dompurify';

/**
 * The browser's pass over HTML the server already sanitised (descriptions, hints, announcements,
 * settings texts), with the same policy and the same two rules the server's sanitiser adds
 * (server/src/lib/sanitize-html.ts): a link keeps only target="_blank" and always carries
 * rel="noopener noreferrer" (DOMPurify alone drops rel, which the policy does not list), and an
 * image that points at the site's own API loses its source.
 */
function browserPurifier(): Purifier {
  const purifier = DOMPurify(window);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      const target = node.getAttribute('target');
      if (target !== null && target !== '_blank') node.removeAttribute('target');
      node.setAttribute('rel', NEW_TAB_LINK_REL);
    } else if (node.hasAttribute('target')) {
      node.removeAttribute('target');
    }
    if (node.tagName === 'IMG') {
      const src = node.getAttribute('src');
      if (src !== null && isApiImageSource(src)) node.removeAttribute('src');
    }
  });
  return purifier;
}

let purifier: Purifier | undefined;
/** Set by the server's renderer (web/src/entry-server.tsx): there is no DOM there for DOMPurify. */
let serverSanitizer: ((html: string) => string) | undefined;

/**
 * The server renders the first view with its own sanitiser, the same policy (the one HTML policy,
 * server/src/lib/sanitize-html.ts); the browser keeps DOMPurify for everything it draws itself.
 */
export function setServerSanitizer(sanitize: (html: string) => string): void {
  serverSanitizer = sanitize;
}

/** The safe form of a fragment of stored HTML, as the page shows it. */
export function sanitizeHtml(html: string): string {
  if (serverSanitizer) return serverSanitizer(html);
  purifier ??= browserPurifier();
  return purifier.sanitize(html, DESCRIPTION_HTML_POLICY);
}
