import {
  CATEGORIES,
  CHALLENGE_DESCRIPTION_MAX_LENGTH,
  DIFFICULTIES,
  POINTS_BY_DIFFICULTY,
  type ChallengeInput,
  type Difficulty,
  type FlagInput,
  type HintInput,
  type ImportIssue,
} from '@ctf/contract';
import { markdownBudgetProblem } from '@ctf/contract';
import { readInstanceYml } from './instance-yml.js';
import { readSolutionYml } from './solution-yml.js';
import { renderMarkdown } from '../../lib/markdown.js';
import { readYamlDocument } from './yaml-document.js';

/**
 * One challenge.yml (ctfcli spec 0.1) read into the admin form's input (docs/challenge-archives.md
 * holds the mapping). Only the shape is read here: the values are checked afterwards by the same
 * contract schema and service checks as Create Challenge, so the rules live in one place. Every
 * finding carries the file and the line of the key it concerns.
 */

/** What the importer takes from one challenge.yml. */
export interface ParsedChallenge {
  /** The challenge.yml's path in the archive. */
  file: string;
  /** Its folder ('' for the archive's root). */
  folder: string;
  /** The admin form's input; files and prerequisites are resolved by the importer. */
  input: ChallengeInput;
  /** `state`: hidden -> false, visible -> true, absent -> undefined (an update keeps it). */
  isActive: boolean | undefined;
  /** Names of the challenges it requires (`requirements`). */
  requirements: string[];
  /** Archive paths of its files (`files`), checked to lie inside its folder. */
  files: string[];
  /** The line of a key path (the nearest present parent's when absent). */
  line(path: readonly (string | number)[]): number | null;
}

/** Keys this importer reads. */
const KNOWN_KEYS = new Set([
  'name',
  'author',
  'category',
  'description',
  'value',
  'type',
  'extra',
  'flags',
  'hints',
  'files',
  'state',
  'scheduled_at',
  'requirements',
  'difficulty',
  'attempts',
  'per_team',
  'per_team_on_page',
  'image',
  'connection_info',
  'instance',
  'solution',
  'version',
]);

/** The difficulty whose points are nearest a value (the lower one on a tie). */
export function difficultyNearest(value: number): Difficulty {
  let best: Difficulty = DIFFICULTIES[0];
  for (const d of DIFFICULTIES) {
    if (Math.abs(POINTS_BY_DIFFICULTY[d] - value) < Math.abs(POINTS_BY_DIFFICULTY[best] - value)) best = d;
  }
  return best;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Maps a contract field path (from the schema's refusal) to the challenge.yml key it came from. */
export function yamlPathOf(field: readonly PropertyKey[]): (string | number)[] {
  const [head, ...rest] = field.map((p) => (typeof p === 'symbol' ? String(p) : p));
  const keys: Record<string, string> = {
    written_by: 'author',
    scoring: 'extra',
    max_attempts: 'attempts',
    release_at: 'scheduled_at',
    prerequisites: 'requirements',
  };
  if (head === undefined) return [];
  // ctfcli's `image` sits at the top; the rest of the instance under our key `instance`.
  if (head === 'instance' && rest[0] === 'image') return ['image'];
  return [keys[String(head)] ?? head, ...rest.slice(0, 2)];
}

export async function parseChallengeYml(
  file: string,
  bytes: Buffer,
  errors: ImportIssue[],
  warnings: ImportIssue[],
): Promise<ParsedChallenge | null> {
  const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
  const startErrors = errors.length;
  const err = (line: number | null, message: string) => errors.push({ file, line, message });
  const warn = (line: number | null, message: string) => warnings.push({ file, line, message });

  const read = readYamlDocument(bytes, err);
  if (!read) return null;
  const { data, line } = read;

  if (!isRecord(data)) {
    err(line([]), 'challenge.yml must be a mapping of keys (name, author, category, ...).');
    return null;
  }
  for (const key of Object.keys(data)) {
    if (!KNOWN_KEYS.has(key)) warn(line([key]), `Unknown key '${key}' was ignored.`);
  }

  const str = (key: string, required: boolean): string | undefined => {
    const v = data[key];
    if (v === undefined || v === null) {
      if (required) err(line([]), `'${key}' is required.`);
      return undefined;
    }
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    err(line([key]), `'${key}' must be text.`);
    return undefined;
  };
  const num = (v: unknown, path: (string | number)[]): number | undefined => {
    if (v === undefined || v === null) return undefined;
    const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
    if (typeof n === 'number' && Number.isFinite(n)) return n;
    err(line(path), `'${path.join('.')}' must be a number.`);
    return undefined;
  };

  const name = str('name', true) ?? '';
  const author = str('author', true) ?? '';

  const categoryText = str('category', true);
  const category = CATEGORIES.find((c) => c.toLowerCase() === categoryText?.trim().toLowerCase());
  if (categoryText !== undefined && !category)
    err(line(['category']), `Unknown category '${categoryText}': use one of ${CATEGORIES.join(', ')}.`);

  const markdown = str('description', false) ?? '';
  let description = '';
  const markdownProblem = markdownBudgetProblem(markdown);
  if (markdown.length > CHALLENGE_DESCRIPTION_MAX_LENGTH) {
    err(
      line(['description']),
      `The description is ${markdown.length} characters long; at most ${CHALLENGE_DESCRIPTION_MAX_LENGTH} are accepted.`,
    );
  } else if (markdownProblem) {
    err(line(['description']), `The description ${markdownProblem}: refused.`);
  } else {
    description = await renderMarkdown(markdown);
  }

  // Scoring: ctfcli's `type: dynamic` with extra {initial, decay, minimum[, function]} is CTFd's
  // formula, which is ours (contract/src/rules/dynamic-scoring.ts): the numbers carry over as they are.
  const type = str('type', false) ?? 'standard';
  const value = num(data.value, ['value']);
  let scoring: ChallengeInput['scoring'] = { type: 'static' };
  if (type === 'dynamic') {
    const extra = isRecord(data.extra) ? data.extra : {};
    if (!isRecord(data.extra))
      err(line(['extra']), "A dynamic challenge needs 'extra: {initial, decay, minimum}'.");
    const initial = num(extra.initial, ['extra', 'initial']) ?? value;
    const minimum = num(extra.minimum, ['extra', 'minimum']);
    const decay = num(extra.decay, ['extra', 'decay']);
    const fn = extra.function ?? 'logarithmic';
    if (fn !== 'linear' && fn !== 'logarithmic')
      err(line(['extra', 'function']), "'extra.function' must be linear or logarithmic.");
    if (initial === undefined || minimum === undefined || decay === undefined) {
      if (isRecord(data.extra)) err(line(['extra']), "'extra' needs initial (or value), decay and minimum.");
    } else {
      scoring = {
        type: 'dynamic',
        function: fn === 'linear' ? 'linear' : 'logarithmic',
        initial,
        minimum,
        decay,
      };
    }
  } else if (type !== 'standard') {
    err(line(['type']), `Challenge type '${type}' is not supported: use standard or dynamic.`);
  } else if (data.extra !== undefined) {
    warn(line(['extra']), "'extra' is only read for type: dynamic; it was ignored.");
  }

  // Difficulty: our own key; else the one whose points are nearest the value (initial when dynamic).
  let difficulty: Difficulty = 'Easy';
  const difficultyText = str('difficulty', false);
  if (difficultyText !== undefined) {
    const found = DIFFICULTIES.find((d) => d.toLowerCase() === difficultyText.trim().toLowerCase());
    if (found) difficulty = found;
    else
      err(
        line(['difficulty']),
        `Unknown difficulty '${difficultyText}': use one of ${DIFFICULTIES.join(', ')}.`,
      );
  } else {
    const basis = scoring.type === 'dynamic' ? scoring.initial : value;
    if (basis === undefined) err(line([]), "Give 'value' (or our own key 'difficulty').");
    else difficulty = difficultyNearest(basis);
  }

  const flags: FlagInput[] = [];
  if (!Array.isArray(data.flags) || data.flags.length === 0) {
    err(line(['flags']), "'flags' must list at least one flag.");
  } else {
    data.flags.forEach((f: unknown, i) => {
      if (typeof f === 'string' || typeof f === 'number') {
        flags.push({ type: 'static', content: String(f) });
        return;
      }
      if (!isRecord(f) || (typeof f.content !== 'string' && typeof f.content !== 'number')) {
        err(line(['flags', i]), `flags.${i} must be text or {type, content, data}.`);
        return;
      }
      const content = String(f.content);
      const insensitive = f.data === 'case_insensitive';
      if (f.data !== undefined && f.data !== null && f.data !== 'case_sensitive' && !insensitive)
        err(line(['flags', i, 'data']), `flags.${i}.data must be case_sensitive or case_insensitive.`);
      const flagType = f.type ?? 'static';
      if (flagType === 'static') flags.push({ type: insensitive ? 'case_insensitive' : 'static', content });
      else if (flagType === 'regex')
        flags.push({ type: 'regex', content: insensitive ? `(?i)${content}` : content });
      else err(line(['flags', i, 'type']), `flags.${i}.type must be static or regex.`);
    });
  }

  let hints: HintInput[] | undefined;
  if (data.hints !== undefined && data.hints !== null) {
    if (!Array.isArray(data.hints)) err(line(['hints']), "'hints' must be a list.");
    else {
      hints = [];
      data.hints.forEach((h: unknown, i) => {
        const title = `Hint ${i + 1}`;
        const content = typeof h === 'string' ? h : isRecord(h) ? h.content : undefined;
        const tooDeep = typeof content === 'string' ? markdownBudgetProblem(content) : null;
        if (tooDeep) {
          err(line(['hints', i]), `hints.${i} ${tooDeep}: refused.`);
          return;
        }
        if (typeof h === 'string') {
          hints!.push({ title, content: h, cost: 0 });
          return;
        }
        if (!isRecord(h) || typeof h.content !== 'string') {
          err(line(['hints', i]), `hints.${i} must be text or {content, cost, title}.`);
          return;
        }
        const cost = num(h.cost, ['hints', i, 'cost']) ?? 0;
        hints!.push({
          title: typeof h.title === 'string' && h.title.trim() ? h.title : title,
          content: h.content,
          cost,
        });
      });
    }
  }

  const files: string[] = [];
  if (data.files !== undefined && data.files !== null) {
    if (!Array.isArray(data.files)) err(line(['files']), "'files' must be a list of paths.");
    else
      data.files.forEach((f: unknown, i) => {
        if (typeof f !== 'string' || f.trim() === '') {
          err(line(['files', i]), `files.${i} must be a path.`);
          return;
        }
        const parts = f.split('/').filter((p) => p !== '' && p !== '.');
        if (
          f.startsWith('/') ||
          f.includes('\\') ||
          /^[A-Za-z]:/.test(f) ||
          parts.includes('..') ||
          parts.length === 0
        ) {
          err(line(['files', i]), `files.${i} '${f}' leaves the challenge folder (path traversal): refused.`);
          return;
        }
        files.push(folder ? `${folder}/${parts.join('/')}` : parts.join('/'));
      });
  }

  let isActive: boolean | undefined;
  const state = str('state', false);
  if (state === 'hidden') isActive = false;
  else if (state === 'visible') isActive = true;
  else if (state !== undefined) err(line(['state']), "'state' must be hidden or visible.");

  const requirements: string[] = [];
  let req = data.requirements;
  // ctfcli also writes {prerequisites: [...], anonymize: ...}.
  if (isRecord(req)) req = req.prerequisites;
  if (req !== undefined && req !== null) {
    if (!Array.isArray(req)) err(line(['requirements']), "'requirements' must list challenge names.");
    else
      req.forEach((r: unknown, i) => {
        if (typeof r === 'string' && r.trim()) requirements.push(r.trim());
        else
          err(
            line(['requirements', i]),
            `requirements.${i} must be a challenge name (ids do not travel between sites).`,
          );
      });
  }

  const scheduled = data.scheduled_at;
  const release_at =
    scheduled === undefined || scheduled === null
      ? null
      : scheduled instanceof Date
        ? scheduled.toISOString()
        : String(scheduled);

  const attempts = num(data.attempts, ['attempts']);

  // Our own keys for per-team flags (issue 18); absent means off, like every absent key.
  const bool = (key: string): boolean => {
    const v = data[key];
    if (v === undefined || v === null) return false;
    if (typeof v === 'boolean') return v;
    err(line([key]), `'${key}' must be true or false.`);
    return false;
  };
  const perTeam = bool('per_team');
  const perTeamOnPage = bool('per_team_on_page');
  const instance = readInstanceYml(data, (path, message) => err(line(path), message));
  const solution = readSolutionYml(data, (path, message) => err(line(path), message));
  if (data.connection_info !== undefined && data.image === undefined)
    warn(
      line(['connection_info']),
      "'connection_info' is only read with 'image' (a container per team); it was ignored.",
    );

  if (errors.length > startErrors) return null;
  return {
    file,
    folder,
    input: {
      name,
      written_by: author,
      category: category!,
      difficulty,
      description,
      flags,
      files: [],
      scoring,
      // ctfcli's 0 means unlimited.
      max_attempts: attempts === undefined || attempts === 0 ? null : attempts,
      release_at,
      hints: hints ?? [],
      per_team: perTeam,
      per_team_on_page: perTeamOnPage,
      // Absent means none, like every absent key: an update removes a container definition.
      instance: instance as ChallengeInput['instance'],
      solution,
    },
    isActive,
    requirements,
    files,
    line,
  };
}
