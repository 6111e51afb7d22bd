import type { Page } from 'playwright-core';

/**
 * Hostile content for the browser's XSS tests: challenge descriptions with scripts, event handlers,
 * javascript: URLs, SVG, style and mutation tricks; usernames and a team name made of HTML; and the
 * check that none of it came alive in a page.
 */

/** Every payload, when it runs, sets window.__xss or opens a dialog. */
export const DESCRIPTIONS: Record<string, string> = {
  script:
    '<p>a</p><script>window.__xss="script"</script><script src="data:text/javascript,window.__xss=1"></script>',
  'img onerror': '<img src="/nope.png" onerror="window.__xss=\'img\'"><img src=x onerror=alert(1)>',
  'event handlers':
    '<div onmouseover="alert(2)" onclick="alert(2)">hover</div><details open ontoggle="window.__xss=\'details\'"><summary>s</summary></details><body onload="alert(3)">',
  'javascript: links':
    '<a href="javascript:window.__xss=\'link\'">x</a><a href="jav&#x09;ascript:alert(4)">y</a><a href="&#106;avascript:alert(5)">z</a><a href=" javascript:alert(6)">w</a>',
  svg: '<svg onload="window.__xss=\'svg\'"><script>alert(7)</script><animate onbegin="alert(8)" attributeName="x"/><a xlink:href="javascript:alert(9)"><text>t</text></a><foreignObject><img src=x onerror=alert(10)></foreignObject></svg>',
  'svg set href':
    '<svg><a><set attributeName="href" to="javascript:alert(11)"/><text y="20">click</text></a></svg>',
  'style tricks':
    '<style>@import "javascript:alert(12)"; body{background:url("javascript:alert(13)")}</style><p style="position:fixed;top:0;left:0;width:100%;height:100%;background:red">overlay</p><link rel="stylesheet" href="data:text/css,body{}">',
  'frames and objects':
    '<iframe src="javascript:alert(14)"></iframe><iframe srcdoc="<script>parent.__xss=1</script>"></iframe><object data="javascript:alert(15)"></object><embed src="javascript:alert(16)">',
  'forms and meta':
    '<form action="javascript:alert(17)"><button>go</button></form><meta http-equiv="refresh" content="0;url=javascript:alert(18)"><base href="javascript:alert(19)//">',
  'mutation (math/mglyph)': '<math><mtext><table><mglyph><style><img src=x onerror=alert(20)>',
  'mutation (noscript)': '<noscript><p title="</noscript><img src=x onerror=alert(21)>">',
  'mutation (template)':
    '<template><img src=x onerror=alert(22)></template><select><template><img src=x onerror=alert(23)></template></select>',
  'dom clobbering': '<img name="__xss"><form id="__xss"></form><a id="__xss" name="__xss" href="x">c</a>',
};

/** The team's three members, in order: the first creates the team and leads it. */
export const USERNAMES = [
  '<img src=x onerror=alert(31)>',
  '<svg/onload=alert(32)>',
  '"><b onmouseover=alert(33)>b',
];
/** Their team's name. */
export const TEAM_NAME = '<img src=x onerror=alert(34)>';
/** A teamless player with points, so it shows on the leaderboard beside the team. */
export const SOLO_TEAMLESS = '<script>alert(35)</script>';

/** No element that runs code, no handler, no script URL in the app's DOM; none of the styling tricks in descriptions. */
export async function dangerousDom(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.getElementById('root')!;
    for (const el of Array.from(root.querySelectorAll('*'))) {
      const tag = el.tagName.toLowerCase();
      if (
        [
          'script',
          'iframe',
          'object',
          'embed',
          'base',
          'meta',
          'link',
          'style',
          'frame',
          'frameset',
          'template',
        ].includes(tag)
      )
        found.push(tag);
      for (const attr of Array.from(el.attributes)) {
        if (/^on/i.test(attr.name)) found.push(`${tag}[${attr.name}]`);
        if (
          /^(href|src|action|formaction|xlink:href|data)$/i.test(attr.name) &&
          /^\s*(javascript|vbscript|data:text\/html)/i.test(attr.value)
        ) {
          found.push(`${tag}[${attr.name}=${attr.value}]`);
        }
      }
    }
    for (const el of Array.from(document.querySelectorAll('[data-testid="challenge-description"] *'))) {
      const tag = el.tagName.toLowerCase();
      if (
        ['svg', 'math', 'form', 'input', 'button', 'select', 'textarea', 'details', 'noscript'].includes(tag)
      )
        found.push(`description ${tag}`);
      if (
        el.hasAttribute('style') ||
        el.hasAttribute('class') ||
        el.hasAttribute('id') ||
        el.hasAttribute('name')
      )
        found.push(`description ${tag} styled or named`);
    }
    return found;
  });
}
