/** The schemes a link may use; a URL with no scheme at all (relative, e.g. a download link) also may. */
export const DESCRIPTION_URI_SCHEMES = ['http', 'https', 'mailto'] as const;
/** The schemes an image may use: no data: or mailto:. */
export const DESCRIPTION_IMAGE_SCHEMES = ['http', 'https'] as const;

/** A URL with one of these schemes, or with none (the text before any ':' is not a scheme). */
function uriWithSchemes(schemes: readonly string[]): RegExp {
  return new RegExp(`^(?:(?:${schemes.join('|')}):|[^a-z]|[a-z+.-]+(?:[^a-z+.\\-:]|$))`, 'i');
}

/**
 * What a challenge description may contain (docs/product.md §14), as DOMPurify options. One policy for
 * both passes: the server cleans with it when a description is saved (sanitize-html, given the
 * same tags, attributes and schemes: server/src/lib/sanitize-html.ts), and the browser cleans with
 * it again (DOMPurify) before showing one, so HTML that got into the database some other way is held to the
 * same rules. It keeps ordinary formatting, links, images, code and tables; everything that can
 * run code, restyle the page or collect input (script, event handlers, javascript: URLs, style,
 * class and id, iframes, forms, SVG, MathML) goes.
 */
export const DESCRIPTION_HTML_POLICY = {
  ALLOWED_TAGS: [
    ...['p', 'br', 'hr', 'div', 'span', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    ...['b', 'strong', 'i', 'em', 'u', 's', 'strike', 'del', 'ins', 'mark', 'small', 'sub', 'sup', 'abbr'],
    ...['a', 'img', 'code', 'pre', 'kbd', 'samp', 'var', 'ul', 'ol', 'li', 'dl', 'dt', 'dd'],
    ...['table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td'],
  ],
  // No style, class or id: they are how a description would restyle or overlay the page around it.
  ALLOWED_ATTR: ['href', 'target', 'title', 'src', 'alt', 'width', 'height', 'colspan', 'rowspan', 'start'],
  ALLOWED_URI_REGEXP: uriWithSchemes(DESCRIPTION_URI_SCHEMES),
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
};

/** Images may not use data: or mailto: (DOMPurify lets data: through for img by default). */
export const DESCRIPTION_IMAGE_URI = uriWithSchemes(DESCRIPTION_IMAGE_SCHEMES);

/** Pages a relative image source may be resolved from (every page is at most two levels deep). */
const PAGE_BASES = ['https://site.invalid/', 'https://site.invalid/admin/panel'];

/**
 * Whether an image source points at an API path (`/api` and below, on this site or, since the site
 * may be reached by several names, on any host). An image loads by itself when the text is shown:
 * `![](/api/auth/logout)` acted for everyone who opened it, with their cookies. Resolved as a
 * browser would (`..`, backslashes, blanks) and percent-decoded, so no spelling slips past; a source
 * that cannot be read counts as one.
 */
export function isApiImageSource(src: string): boolean {
  // Browsers drop tabs and newlines from URLs, and blanks at either end.
  const cleaned = src.replace(/[\t\n\r]/g, '').trim();
  for (const base of PAGE_BASES) {
    let path: string;
    try {
      path = decodeURIComponent(new URL(cleaned, base).pathname).toLowerCase();
    } catch {
      return true;
    }
    if (path === '/api' || path.startsWith('/api/')) return true;
  }
  return false;
}

/** What a link opened in a new tab carries, so the page it opens gets no handle on this one. */
export const NEW_TAB_LINK_REL = 'noopener noreferrer';
