import { readFileSync } from 'node:fs';

/**
 * A rule of the site's stylesheet and what its selectors need: for each selector, the classes
 * and the element names it requires; null when it always applies (an at-rule block, @keyframes).
 * The web build writes the list (scripts/trim-css.mjs, web/dist-ssr/page-css.json), in the
 * stylesheet's order, rules inside @media wrapped in their block one by one.
 */
export interface IndexedRule {
  css: string;
  needs: [classes: string[], tags: string[]][] | null;
}

/**
 * Picks the rules a page's HTML can match. The browser-drawn pages' head carries the rules of
 * their shell only (the navbar and the loading notice); a page the server rendered carries its
 * content too, and painted with the shell's rules alone it would move when the whole stylesheet
 * arrives (on a slow link, after the first paint). So its head carries the rules its own HTML can
 * match, in the stylesheet's order: nothing changes when the stylesheet arrives. A rule is kept
 * when one of its selectors needs no class and no element the page lacks (states such as :hover
 * and attributes are not looked at: a rule too many, never one too few).
 */
export function pageCss(rules: readonly IndexedRule[], html: string): string {
  const classes = new Set<string>();
  for (const [, list] of html.matchAll(/\sclass="([^"]*)"/g))
    for (const c of list!.split(/\s+/)) if (c) classes.add(c);
  const tags = new Set(['html', 'body']);
  for (const [, tag] of html.matchAll(/<([a-z][a-z0-9-]*)/g)) tags.add(tag!);
  let css = '';
  for (const rule of rules) {
    if (
      rule.needs === null ||
      rule.needs.some(([c, t]) => c.every((x) => classes.has(x)) && t.every((x) => tags.has(x)))
    )
      css += rule.css;
  }
  return css;
}

/** The rule index of the web build, or null when it has none (built before it was written). */
export function loadRuleIndex(file: string): IndexedRule[] | null {
  try {
    const { rules } = JSON.parse(readFileSync(file, 'utf8')) as { rules: IndexedRule[] };
    return Array.isArray(rules) ? rules : null;
  } catch {
    return null;
  }
}

/**
 * The template with its head's inlined rules (`<style>…</style>`, the shell's) replaced by `css`,
 * or `css` added before `</head>` when the template inlines none.
 */
export function withHeadStyle(template: string, css: string): string {
  const head = template.indexOf('</head>');
  if (head < 0) return template;
  const style = `<style>${css}</style>`;
  const open = template.indexOf('<style>');
  const close = open >= 0 ? template.indexOf('</style>', open) : -1;
  if (open >= 0 && close >= 0 && close < head)
    return template.slice(0, open) + style + template.slice(close + '</style>'.length);
  return template.slice(0, head) + style + template.slice(head);
}
