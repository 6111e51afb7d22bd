import { CHALLENGE_ARCHIVE_LIMITS } from '@ctf/contract';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { duplicateKeyOffsets, yamlBudgetProblem } from './yaml-budget.js';

/** A challenge.yml read: its data, and where each key of it sits. */
export interface YamlDocument {
  data: unknown;
  /** The line of a key path (the nearest present parent's when absent). */
  line(path: readonly (string | number)[]): number | null;
}

/**
 * Reads one challenge.yml within the archive's budgets (its size, then its keys and depth before
 * parsing, its aliases while resolving them); null once every reason it cannot be read has been
 * reported through `err`.
 */
export function readYamlDocument(
  bytes: Buffer,
  err: (line: number | null, message: string) => void,
): YamlDocument | null {
  if (bytes.length > CHALLENGE_ARCHIVE_LIMITS.maxYamlBytes) {
    err(null, `challenge.yml is larger than ${CHALLENGE_ARCHIVE_LIMITS.maxYamlBytes / 1024} KB: refused.`);
    return null;
  }
  const text = bytes.toString('utf8');
  const overBudget = yamlBudgetProblem(text);
  if (overBudget) {
    err(overBudget.line, overBudget.message);
    return null;
  }
  const counter = new LineCounter();
  const lineAt = (offset: number) => Math.max(counter.linePos(offset).line, 1);
  let doc: Document;
  try {
    // NOTE: yaml's own uniqueKeys check compares each key with every earlier one (quadratic);
    // duplicateKeyOffsets does it with a Set.
    doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: false });
  } catch (e) {
    err(null, `challenge.yml could not be read: ${(e as Error).message}`);
    return null;
  }
  let broken = false;
  for (const e of doc.errors) {
    err(lineAt(e.pos[0]), `YAML: ${e.message.split('\n')[0]}`);
    broken = true;
  }
  for (const offset of duplicateKeyOffsets(doc)) {
    err(lineAt(offset), 'YAML: Map keys must be unique');
    broken = true;
  }
  if (broken) return null;
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: CHALLENGE_ARCHIVE_LIMITS.maxYamlAliases });
  } catch (e) {
    // yaml refuses an alias bomb here ("Excessive alias count ...").
    err(
      null,
      `challenge.yml refused: ${(e as Error).message} (at most ${CHALLENGE_ARCHIVE_LIMITS.maxYamlAliases} aliases).`,
    );
    return null;
  }

  const line = (path: readonly (string | number)[]): number | null => {
    for (let n = path.length; n >= 0; n -= 1) {
      const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
      const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
      if (range) return lineAt(range[0]);
    }
    return null;
  };
  return { data, line };
}
