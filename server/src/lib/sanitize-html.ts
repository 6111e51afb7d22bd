import {
  DESCRIPTION_HTML_POLICY,
  DESCRIPTION_IMAGE_SCHEMES,
  DESCRIPTION_URI_SCHEMES,
  NEW_TAB_LINK_REL,
  isApiImageSource,
} from '@ctf/contract';
import sanitize from 'sanitize-html';

/**
 * Challenge descriptions are HTML written by admins and shown to every participant, so they are
 * cleaned when saved, and again in the browser when shown with the same policy
 * (DESCRIPTION_HTML_POLICY in the contract; docs/product.md §14).
 *
 * NOTE: the server cleans with sanitize-html (an HTML parser and an allowlist, ~10 MB), not with
 * DOMPurify, which needs a whole DOM here (jsdom: ~100 MB and a second to load): every process an
 * admin wrote through carried it, and the live event stream's memory bound could not hold with it
 * (bench/NOTES.md, the fourth round). The browser still cleans with DOMPurify before showing.
 */

/**
 * Elements dropped with everything inside them, as DOMPurify drops them (its FORBID_CONTENTS),
 * plus sanitize-html's own (textarea, option): the text of a script, style, SVG or MathML
 * island is never shown as text.
 */
const DROPPED_WITH_CONTENT = [
  ...['script', 'style', 'template', 'noscript', 'noembed', 'noframes', 'plaintext', 'xmp'],
  ...['iframe', 'svg', 'math', 'mi', 'mn', 'mo', 'ms', 'mtext', 'annotation-xml', 'desc'],
  ...['foreignobject', 'audio', 'video', 'colgroup', 'head', 'title', 'textarea', 'option'],
];

const OPTIONS: sanitize.IOptions = {
  allowedTags: [...DESCRIPTION_HTML_POLICY.ALLOWED_TAGS],
  // Every allowed attribute on every allowed element, as DOMPurify's ALLOWED_ATTR; `rel` only as
  // the link rule below sets it.
  allowedAttributes: { '*': [...DESCRIPTION_HTML_POLICY.ALLOWED_ATTR], a: ['rel'] },
  allowedSchemes: [...DESCRIPTION_URI_SCHEMES],
  allowedSchemesByTag: { img: [...DESCRIPTION_IMAGE_SCHEMES] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: true,
  allowedClasses: {},
  allowedStyles: {},
  disallowedTagsMode: 'discard',
  nonTextTags: DROPPED_WITH_CONTENT,
  transformTags: {
    '*': (tagName, attribs) => {
      const attributes = { ...attribs };
      if (tagName === 'a') {
        // A link opened from a description must not get a handle on this page (reverse tabnabbing).
        if (attributes.target !== undefined && attributes.target !== '_blank') delete attributes.target;
        attributes.rel = NEW_TAB_LINK_REL;
      } else {
        delete attributes.target;
      }
      // An image that would call the site's own API as whoever views it loses its source.
      if (tagName === 'img' && attributes.src !== undefined && isApiImageSource(attributes.src))
        delete attributes.src;
      return { tagName, attribs: attributes };
    },
  },
};

/** The safe form of an HTML fragment, as stored and served. */
export async function sanitizeHtml(html: string): Promise<string> {
  // Text with no '<' cannot hold an element: kept as written, as DOMPurify keeps it.
  if (!html.includes('<')) return html;
  return sanitize(html, OPTIONS);
}

/** The `rel` of a link a static archive keeps to another site (issue 32): no referrer, no endorsement. */
export const ARCHIVE_LINK_REL = 'noopener noreferrer nofollow';

/**
 * Stored (already safe) HTML made fit for a static archive that must make no request to any server
 * when opened (issue 32): links to other sites stay plain links with ARCHIVE_LINK_REL; a link
 * to a path of the site goes where `localHref` maps it inside the archive (null: it loses its
 * href); an image loses its source and shows its alternative text, since a source is another server's
 * or the site's (an image without one is left out). The same policy as above, so nothing the
 * stored HTML lacked can come in.
 */
export async function archiveHtml(html: string, localHref: (path: string) => string | null): Promise<string> {
  if (!html.includes('<')) return html;
  return sanitize(html, {
    ...OPTIONS,
    exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.alt,
    transformTags: {
      '*': (tagName, attribs) => {
        const attributes = { ...attribs };
        delete attributes.target;
        delete attributes.src;
        if (tagName === 'a' && attributes.href !== undefined) {
          const href = attributes.href.replace(/[\t\n\r]/g, '').trim();
          if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(href)) attributes.rel = ARCHIVE_LINK_REL;
          else {
            const local = href.startsWith('/') ? localHref(href) : null;
            if (local === null) delete attributes.href;
            else attributes.href = local;
            delete attributes.rel;
          }
        }
        return { tagName, attribs: attributes };
      },
    },
  });
}

/**
 * sanitizeHtml without the promise, for a caller that cannot wait: the server's renderer of the
 * first views (modules/first-view), which runs the browser's components, and they sanitise as
 * they render.
 */
export function sanitizeHtmlNow(html: string): string {
  if (!html.includes('<')) return html;
  return sanitize(html, OPTIONS);
}
