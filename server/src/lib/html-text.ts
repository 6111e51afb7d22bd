import { PREVIEW_BLOCK_ELEMENTS, PREVIEW_NO_TEXT_ELEMENTS } from '@ctf/contract';
import { parseDocument } from 'htmlparser2';

const NO_TEXT = new Set<string>(PREVIEW_NO_TEXT_ELEMENTS);
const BLOCKS = new Set<string>(PREVIEW_BLOCK_ELEMENTS);

/** What this reads of a parsed node (htmlparser2's DOM). */
interface HtmlNode {
  type: string;
  name?: string;
  data?: string;
  children?: HtmlNode[];
}

/**
 * The visible text of stored (sanitised) HTML as the web's card preview reads it with the
 * browser's DOMParser (web/src/features/challenges/filter.ts): the text of every element but
 * PREVIEW_NO_TEXT_ELEMENTS, a space after each of PREVIEW_BLOCK_ELEMENTS, entities decoded,
 * whitespace as it is. For the server's rendering of Compete, whose cards the browser then
 * hydrates: both must read the same text.
 */
export function visibleText(html: string): string {
  let text = '';
  const walk = (nodes: HtmlNode[]) => {
    for (const node of nodes) {
      if (node.type === 'text') text += node.data ?? '';
      else if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
        const name = node.name!.toLowerCase();
        if (NO_TEXT.has(name)) continue;
        walk(node.children ?? []);
        if (BLOCKS.has(name)) text += ' ';
      }
    }
  };
  walk(parseDocument(html).children as HtmlNode[]);
  return text;
}
