import { DESCRIPTION_HTML_POLICY, NEW_TAB_LINK_REL, isApiImageSource } from '@ctf/contract';
import DOMPurify from 'dompurify';

/**
 * The browser's pass over HTML the server already sanitised (descriptions, hints, announcements,
 * settings texts), with the same policy and the same two rules the server's sanitiser adds
 * (server/src/lib/sanitize-html.ts): a link keeps only target="_blank" and always carries
 * rel="noopener noreferrer" (DOMPurify alone drops rel, which the policy does not list), and an
 * image that points at the site's own API loses its source.
 */
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

/** The safe form of a fragment of stored HTML, as the page shows it. */
export function sanitizeHtml(html: string): string {
  return purifier.sanitize(html, DESCRIPTION_HTML_POLICY);
}
