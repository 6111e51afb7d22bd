import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../lib/markdown.js';
import { DEFAULT_ABOUT_MD, DEFAULT_FAQ_MD, DEFAULT_HTML, DEFAULT_RULES_MD } from './event-state.defaults.js';

describe('default settings texts', () => {
  it('keep their HTML equal to what the Markdown path renders (served without loading the sanitiser)', async () => {
    expect({
      aboutMd: await renderMarkdown(DEFAULT_ABOUT_MD),
      rulesMd: await renderMarkdown(DEFAULT_RULES_MD),
      faqMd: await renderMarkdown(DEFAULT_FAQ_MD),
    }).toEqual(DEFAULT_HTML);
  });

  it('ask the five questions of docs/product.md §2 as headings, with the setup guide link', async () => {
    const headings = [...DEFAULT_FAQ_MD.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual([
      'What is a CTF?',
      'Do I need to be an expert?',
      'How should I prepare?',
      'How big can a team be?',
      'How do I create or join a team?',
    ]);
    expect(DEFAULT_HTML.faqMd).toContain('href="/kali-setup-guide"');
  });
});
