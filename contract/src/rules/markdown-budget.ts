/**
 * How deeply Markdown may nest its containers (block quotes and lists), checked before it is
 * parsed. marked's cost grows much faster than the text with the nesting depth (600 `>` followed
 * by three lines held a parse for over a second; 5,000 overflowed its stack), while a real text
 * nests a handful of levels. Within this depth and the fields' length limits (20,000 characters at
 * most), every shape measured renders in tens of milliseconds (docs/security.md).
 */
export const MARKDOWN_MAX_NESTING = 16;

/** A list item's marker: a bullet, or a number with `.` or `)`, then a space, a tab or the line's end. */
function markerEnd(line: string, at: number): number {
  const c = line.charCodeAt(at);
  let end = at;
  if (c === 45 /* - */ || c === 42 /* * */ || c === 43 /* + */) end = at + 1;
  else {
    while (end < line.length && end - at < 10 && line.charCodeAt(end) >= 48 && line.charCodeAt(end) <= 57)
      end += 1;
    if (end === at || end - at > 9) return -1;
    const after = line.charCodeAt(end);
    if (after !== 46 /* . */ && after !== 41 /* ) */) return -1;
    end += 1;
  }
  const next = line.charCodeAt(end);
  return end === line.length || next === 32 || next === 9 ? end : -1;
}

/**
 * The container depth one line opens: every `>` and list marker in its leading run of markers and
 * blanks, plus its indentation before a marker in half-steps of two columns (nested lists are
 * written by indenting). Indentation not followed by a marker (code, ASCII art) does not count.
 */
export function lineNesting(line: string): number {
  let depth = 0;
  let columns = 0;
  let at = 0;
  while (at < line.length) {
    const c = line.charCodeAt(at);
    if (c === 32) {
      columns += 1;
      at += 1;
    } else if (c === 9) {
      columns += 4;
      at += 1;
    } else if (c === 62 /* > */) {
      depth += 1 + (columns >> 1);
      columns = 0;
      at += 1;
    } else {
      const end = markerEnd(line, at);
      if (end < 0) break;
      depth += 1 + (columns >> 1);
      columns = 0;
      at = end;
    }
  }
  return depth;
}

/**
 * Why a Markdown text is refused before parsing (null when it is within the budget): linear in its
 * length. Lines inside a top-level fenced code block are text, not containers.
 */
export function markdownBudgetProblem(markdown: string): string | null {
  let fence: string | null = null;
  let lineNo = 0;
  for (const line of markdown.split('\n')) {
    lineNo += 1;
    const fenceMark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = null;
      continue;
    }
    if (fenceMark) {
      fence = fenceMark;
      continue;
    }
    if (lineNesting(line) > MARKDOWN_MAX_NESTING)
      return `nests quotes or lists more than ${MARKDOWN_MAX_NESTING} levels deep (line ${lineNo})`;
  }
  return null;
}
