import { CHALLENGE_ARCHIVE_LIMITS, MESSAGES, adminApi, nameKey, type ImportIssue } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { DomainError } from '../../lib/errors.js';
import { prepareChallenge, type PreparedChallenge } from '../challenges/challenge-writes.js';
import { listChallengeNamesOf } from '../challenges/challenges.service.js';
import { isCreateLocked } from '../event-state/event-state.service.js';
import type { ArchiveFiles } from './archive-reader.js';
import { YML, packFiles } from './archive-packing.js';
import { parseChallengeYml, yamlPathOf, type ParsedChallenge } from './challenge-yml.js';

/** One challenge ready to write: its checked input, its files, and what it requires. */
export interface Planned {
  parsed: ParsedChallenge;
  prepared: PreparedChallenge;
  existingId: number | null;
  upload: { name: string; content: Buffer }[];
}

/** What the checks of an archive found; any error refuses the whole archive. */
export interface ImportPlan {
  /** Every challenge that passed its checks, in challenge.yml path order. */
  planned: Planned[];
  /** The site's challenges by name key (a requirement may name one of them). */
  existing: Map<string, { id: number; name: string }>;
  errors: ImportIssue[];
  warnings: ImportIssue[];
}

/** A plan refused as a whole before any challenge was read. */
function refusedPlan(message: string): ImportPlan {
  return { planned: [], existing: new Map(), errors: [{ file: '', line: null, message }], warnings: [] };
}

/**
 * Reads and checks every challenge.yml of an archive already read, as the admin form and the
 * service would check it; nothing is written (the import writes the plan: archive.service.ts).
 */
export async function planImport(ctx: AppContext, archive: ArchiveFiles): Promise<ImportPlan> {
  const errors: ImportIssue[] = [];
  const warnings: ImportIssue[] = [];

  // The challenge folders: every folder holding a challenge.yml. Any other file must lie in one.
  const ymls = [...archive.keys()].filter((p) => p === YML || p.endsWith(`/${YML}`)).sort();
  if (ymls.length === 0) {
    return refusedPlan(
      'The archive holds no challenge.yml: each challenge is a folder with a challenge.yml and its files.',
    );
  }
  if (ymls.length > CHALLENGE_ARCHIVE_LIMITS.maxChallenges) {
    return refusedPlan(`The archive holds more than ${CHALLENGE_ARCHIVE_LIMITS.maxChallenges} challenges.`);
  }
  const folders = ymls.map((y) => (y === YML ? '' : y.slice(0, -YML.length - 1)));
  const inside = (p: string, folder: string) => folder === '' || p.startsWith(`${folder}/`);
  for (const [i, folder] of folders.entries()) {
    const outer = folders.find((f, j) => j !== i && f !== folder && inside(folder, f));
    if (outer !== undefined)
      errors.push({
        file: ymls[i]!,
        line: null,
        message: `A challenge folder may not lie inside another ('${outer || '.'}').`,
      });
  }
  // A file outside every challenge folder: beside them (a repository's README) it is ignored;
  // in a folder of its own, that folder is a challenge without its challenge.yml.
  for (const p of archive.keys()) {
    if (folders.some((f) => inside(p, f))) continue;
    if (p.split('/').some((part) => part.startsWith('.'))) continue;
    const dir = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '';
    if (folders.some((f) => dir === '' || f.startsWith(`${dir}/`)))
      warnings.push({ file: p, line: null, message: `'${p}' lies in no challenge folder and was ignored.` });
    else
      errors.push({
        file: p,
        line: null,
        message: `The folder '${dir}' has no challenge.yml: each challenge folder needs one.`,
      });
  }

  const parsed: ParsedChallenge[] = [];
  for (const file of ymls) {
    const one = await parseChallengeYml(file, archive.get(file)!, errors, warnings);
    if (one) parsed.push(one);
  }

  // Names: unique in the archive; matched to the site's challenges by the same key as the site's
  // own uniqueness rule.
  const existing = new Map((await listChallengeNamesOf(ctx)).map((c) => [nameKey(c.name), c]));
  const inArchive = new Map<string, ParsedChallenge>();
  for (const p of parsed) {
    const key = nameKey(p.input.name.trim());
    const first = inArchive.get(key);
    if (first)
      errors.push({
        file: p.file,
        line: p.line(['name']),
        message: `The name '${p.input.name}' is also used by ${first.file}.`,
      });
    else inArchive.set(key, p);
  }
  const createLocked = await isCreateLocked(ctx);

  // Files: each listed path must be in the archive.
  const planned: Planned[] = [];
  const uploadNames = new Map<string, string>();
  for (const p of parsed) {
    const issue = (line: number | null, message: string) => errors.push({ file: p.file, line, message });
    p.files.forEach((f, i) => {
      if (!archive.has(f))
        issue(
          p.line(['files', i]),
          `files.${i}: '${f.slice(p.folder ? p.folder.length + 1 : 0)}' is not in the challenge folder.`,
        );
    });
    for (const [i, r] of p.requirements.entries()) {
      if (!inArchive.has(nameKey(r)) && !existing.has(nameKey(r)))
        issue(
          p.line(['requirements', i]),
          `requirements.${i}: no challenge named '${r}' in the archive or on the site.`,
        );
    }
    const match = existing.get(nameKey(p.input.name.trim()));
    if (!match && createLocked) issue(p.line(['name']), MESSAGES.createDisabled);

    // The one validation of the admin form, then the service's own (flags, hints).
    const checked = adminApi.ChallengeInput.safeParse(p.input);
    if (!checked.success) {
      for (const e of checked.error.issues) {
        const field = e.path.join('.');
        issue(p.line(yamlPathOf(e.path)), `${yamlPathOf(e.path).join('.') || field}: ${e.message}`);
      }
      continue;
    }
    if (p.files.some((f) => !archive.has(f))) continue;
    let prepared: PreparedChallenge;
    try {
      prepared = await prepareChallenge(checked.data, ctx.config.instances.policy);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const m = /^Invalid (flags|hints)\.(\d+)/.exec(err.message);
      issue(m ? p.line([m[1]!, Number(m[2])]) : null, err.message);
      continue;
    }
    const upload = await packFiles(p, archive);
    for (const u of upload) {
      const other = uploadNames.get(u.name.toLowerCase());
      if (other)
        issue(p.line(['files']), `The file '${u.name}' is also stored by ${other}: rename one of them.`);
      uploadNames.set(u.name.toLowerCase(), p.file);
    }
    planned.push({ parsed: p, prepared, existingId: match?.id ?? null, upload });
  }
  return { planned, existing, errors, warnings };
}
