import { CHALLENGE_ARCHIVE_LIMITS } from '@ctf/contract';
import { isScalar, Lexer, visit, type Document } from 'yaml';

/**
 * The budget a challenge.yml must fit before it is parsed (CHALLENGE_ARCHIVE_LIMITS): a count of
 * keys and a nesting depth, read from yaml's own lexer, which is linear in the text and stops at
 * the first token past either limit. Quoted, plain and block scalars are one token each, so text
 * inside a description counts for nothing.
 */

const LIMITS = CHALLENGE_ARCHIVE_LIMITS;

/** Why a challenge.yml is refused before parsing, with its line, or null when it fits. */
export function yamlBudgetProblem(text: string): { line: number; message: string } | null {
  let keys = 0;
  let flow = 0;
  let line = 1;
  let lineDepth = 0;
  let atLineStart = true;
  for (const token of new Lexer().lex(text)) {
    if (token === '\n' || token === '\r\n') {
      line += 1;
      lineDepth = 0;
      atLineStart = true;
      continue;
    }
    if (atLineStart && /^[ \t]+$/.test(token)) {
      // Indentation: two columns a level, as block collections are written.
      lineDepth += token.length >> 1;
    } else if (token === ':' || token === '?' || token === ',') {
      // A key (an entry of a flow collection too: `{a, b, c}` holds keys with no ':').
      keys += 1;
      if (token !== ',') lineDepth += 1;
    } else if (token === '-') {
      lineDepth += 1;
    } else if (token === '[' || token === '{') {
      flow += 1;
    } else if (token === ']' || token === '}') {
      flow = Math.max(flow - 1, 0);
    } else if (token.includes('\n')) {
      // A multi-line scalar or comment: count its lines; the depth stays the line's it began on.
      for (const c of token) if (c === '\n') line += 1;
    }
    atLineStart = false;
    if (keys > LIMITS.maxYamlKeys)
      return { line, message: `challenge.yml holds more than ${LIMITS.maxYamlKeys} keys: refused.` };
    if (lineDepth + flow > LIMITS.maxYamlNesting)
      return { line, message: `challenge.yml nests more than ${LIMITS.maxYamlNesting} levels deep: refused.` };
  }
  return null;
}

/** Where each repeated key of a mapping starts (scalar keys compared by value, as yaml does). */
export function duplicateKeyOffsets(doc: Document): number[] {
  const offsets: number[] = [];
  visit(doc, {
    Map(_key, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        if (seen.has(pair.key.value)) offsets.push(pair.key.range?.[0] ?? 0);
        seen.add(pair.key.value);
      }
    },
  });
  return offsets;
}
