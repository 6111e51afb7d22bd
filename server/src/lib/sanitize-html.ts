// Before jsdom: keeps Node's fetch dispatcher in place (see the module).
import './native-fetch-first.js';
import { DESCRIPTION_HTML_POLICY, DESCRIPTION_IMAGE_URI } from '@ctf/contract';
import type { DOMPurify, WindowLike } from 'dompurify';

/**
 * Challenge descriptions are HTML written by admins and shown to every participant, so they are
 * cleaned when saved, and again in the browser when shown with the same policy
 * (DESCRIPTION_HTML_POLICY in the contract; DESIGN.md §6).
 */

let purifier: Promise<DOMPurify> | null = null;

/**
 * The DOM and DOMPurify are loaded on first use, not at start-up: only admin writes sanitise, and
 * jsdom costs tens of megabytes and a noticeable part of the start-up time.
 */
function loadPurifier(): Promise<DOMPurify> {
  purifier ??= (async () => {
    const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([
      import('jsdom'),
      import('dompurify'),
    ]);
    const purify = createDOMPurify(new JSDOM('').window as unknown as WindowLike);
    addLinkAndImageRules(purify);
    return purify;
  })();
  return purifier;
}

/**
 * Starts loading the sanitiser in the background, where an admin is at work (any admin call): the
 * admin's first write (an announcement the live stream must carry within a second) then finds it
 * ready, while a process that only serves players never pays jsdom's memory.
 */
export function prepareSanitizer(): void {
  if (purifier) return;
  loadPurifier().catch(() => {
    // Loading is tried again by the write that needs it, which reports the failure.
    purifier = null;
  });
}

function addLinkAndImageRules(purify: DOMPurify): void {
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A') {
      // A link opened from a description must not get a handle on this page (reverse tabnabbing).
      node.setAttribute('rel', 'noopener noreferrer');
      if (node.hasAttribute('target') && node.getAttribute('target') !== '_blank')
        node.removeAttribute('target');
    } else if (node.hasAttribute('target')) {
      node.removeAttribute('target');
    }
    if (node.nodeName === 'IMG') {
      const src = (node.getAttribute('src') ?? '').replace(/[\u0000-\u0020]/g, '');
      if (!DESCRIPTION_IMAGE_URI.test(src)) node.removeAttribute('src');
    }
  });
}

/** The safe form of an HTML fragment, as stored and served. */
export async function sanitizeHtml(html: string): Promise<string> {
  if (!html) return '';
  const purify = await loadPurifier();
  return purify.sanitize(html, DESCRIPTION_HTML_POLICY);
}
