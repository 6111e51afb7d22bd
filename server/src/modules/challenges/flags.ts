import { FLAG_MAX_LENGTH, type FlagInput, type FlagType } from '@ctf/contract';
import { RE2JS } from 're2js';
import { constantTimeMatcher } from '../../lib/crypto.js';
import { badInput } from '../../lib/errors.js';

/** A stored flag, ready to compare: regexes are compiled once, when the flag gate's cache fills. */
export type FlagMatcher = (submitted: string) => boolean;

export interface StoredFlag {
  type: FlagType;
  content: string;
}

/**
 * Compiles an author's pattern with RE2 (re2js: linear time, no backtracking), never with
 * JavaScript's RegExp, so no pattern can make a submission slow. Throws what RE2 says is wrong.
 */
function compileRegex(pattern: string): RE2JS {
  return RE2JS.compile(pattern);
}

/** One flag as a comparison; the submission arrives trimmed. */
export function flagMatcher(flag: StoredFlag): FlagMatcher {
  const expected = flag.content.trim();
  switch (flag.type) {
    case 'static':
      return constantTimeMatcher(expected);
    case 'case_insensitive': {
      const equalsLower = constantTimeMatcher(expected.toLowerCase());
      return (submitted) => equalsLower(submitted.toLowerCase());
    }
    case 'regex': {
      // matches() is a whole-string match: 'flag\{.*\}' does not accept 'xflag{}x'.
      const re = compileRegex(flag.content);
      return (submitted) => re.matches(submitted);
    }
    default:
      throw new Error(`Unknown flag type ${String(flag.type)}`);
  }
}

/**
 * Whether a text whole-matches any of these patterns, in one pass of one RE2 program (the
 * alternation of all of them): tens of patterns tried in turn cost ~7 us a text, together ~0.3 us.
 * Null when the alternation does not compile (too large for RE2): try them one by one then.
 */
export function anyPatternMatcher(patterns: readonly string[]): FlagMatcher | null {
  if (patterns.length === 0) return () => false;
  try {
    const re = compileRegex(patterns.map((p) => `(?:${p})`).join('|'));
    return (submitted) => re.matches(submitted);
  } catch {
    return null;
  }
}

/**
 * One matcher for all of a challenge's flags. A stored pattern that no longer compiles (it was
 * checked when saved) matches nothing rather than failing every submission.
 */
export function challengeMatcher(flags: readonly StoredFlag[]): FlagMatcher {
  const matchers: FlagMatcher[] = [];
  for (const f of flags) {
    try {
      matchers.push(flagMatcher(f));
    } catch {
      // Skipped: see above.
    }
  }
  return (submitted) => {
    const trimmed = submitted.trim();
    // Every static comparison runs, so the time does not tell which flag came close.
    let ok = false;
    for (const m of matchers) if (m(trimmed)) ok = true;
    return ok;
  };
}

/**
 * The flags to store, checked: contents trimmed; a static or case-insensitive flag no longer than
 * a submission may be (it could never be matched); a regex that RE2 compiles. 400 naming the flag.
 */
export function normaliseFlags(flags: readonly FlagInput[]): StoredFlag[] {
  return flags.map((f, i) => {
    const type = f.type ?? 'static';
    const content = type === 'regex' ? f.content : f.content.trim();
    const where = `flags.${i}`;
    if (content.trim() === '') throw badInput(`Invalid ${where}: Flag is required`);
    if (type !== 'regex' && content.length > FLAG_MAX_LENGTH) {
      throw badInput(`Invalid ${where}: Flag must be at most ${FLAG_MAX_LENGTH} characters`);
    }
    if (type === 'regex') {
      try {
        compileRegex(content);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw badInput(`Invalid ${where}: not a valid regular expression (${reason})`);
      }
    }
    return { type, content };
  });
}
