import { describe, expect, it } from 'vitest';
import { pageCss, withHeadStyle, type IndexedRule } from './page-css.js';

const RULES: IndexedRule[] = [
  { css: ':root{--a:1}', needs: [[[], []]] },
  { css: '@keyframes spin{to{transform:rotate(1turn)}}', needs: null },
  { css: 'h1{font-size:2rem}', needs: [[[], ['h1']]] },
  { css: '.btn{padding:1px}', needs: [[['btn'], []]] },
  {
    css: '.btn-link,.nav .nav-link{color:blue}',
    needs: [
      [['btn-link'], []],
      [['nav', 'nav-link'], []],
    ],
  },
  {
    css: '@media (width>=992px){.navbar-expand-lg .navbar-nav{display:flex}}',
    needs: [[['navbar-expand-lg', 'navbar-nav'], []]],
  },
  { css: 'ul li.active{font-weight:700}', needs: [[['active'], ['ul', 'li']]] },
];

describe('the rules a server-rendered page carries in its head', () => {
  it('keeps, in the stylesheet’s order, the rules whose selector the page’s classes and elements can match', () => {
    const html =
      '<nav class="navbar navbar-expand-lg"><ul class="navbar-nav"><li class="active">x</li></ul></nav><h1>T</h1>';
    expect(pageCss(RULES, html)).toBe(
      ':root{--a:1}@keyframes spin{to{transform:rotate(1turn)}}h1{font-size:2rem}' +
        '@media (width>=992px){.navbar-expand-lg .navbar-nav{display:flex}}ul li.active{font-weight:700}',
    );
  });

  it('keeps a rule one of whose selectors matches, and leaves those needing a class or element the page lacks', () => {
    const html = '<div class="nav x"><a class="nav-link">a</a></div><p class="btn-linked">p</p>';
    expect(pageCss(RULES, html)).toBe(
      ':root{--a:1}@keyframes spin{to{transform:rotate(1turn)}}.btn-link,.nav .nav-link{color:blue}',
    );
  });

  it('never takes text for markup: a class named in a page’s words or in its text (escaped as React writes it) matches nothing', () => {
    const html = '<p>the btn class and &lt;h1 class=&quot;btn&quot;&gt;</p>';
    expect(pageCss(RULES, html)).toBe(':root{--a:1}@keyframes spin{to{transform:rotate(1turn)}}');
  });

  it('puts the rules in place of the template’s inlined ones, or before </head> when it has none', () => {
    expect(
      withHeadStyle(
        '<html><head><style>.shell{}</style><title>t</title></head><body><style>x</style></body>',
        'a{}',
      ),
    ).toBe('<html><head><style>a{}</style><title>t</title></head><body><style>x</style></body>');
    expect(withHeadStyle('<html><head><title>t</title></head><body></body>', 'a{}')).toBe(
      '<html><head><title>t</title><style>a{}</style></head><body></body>',
    );
  });
});
