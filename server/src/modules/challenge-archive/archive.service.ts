import {
  CHALLENGE_ARCHIVE_LIMITS,
  MESSAGES,
  adminApi,
  nameKey,
  type AdminChallenge,
  type ImportIssue,
  type ImportResult,
} from '@ctf/contract';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import yazl from 'yazl';
import type { AppContext } from '../../context.js';
import { DomainError } from '../../lib/errors.js';
import { SYSTEM_ACTOR, recordAudit, type AuditActor } from '../audit/audit.service.js';
import {
  insertPreparedChallenge,
  listChallengesForAdmin,
  prepareChallenge,
  updatePreparedChallenge,
  writePrerequisites,
  type PreparedChallenge,
} from '../challenges/challenges.service.js';
import { listChallengeNames } from '../challenges/challenges.repo.js';
import { ImportedFiles } from '../files/files.service.js';
import { readStored } from '../files/files.storage.js';
import { isDuringEvent } from '../event-state/event-state.service.js';
import {
  ArchiveError,
  looksLikeZipBytes,
  readArchivePath,
  readZipArchive,
  type ArchiveFiles,
} from './archive-reader.js';
import { parseChallengeYml, yamlPathOf, type ParsedChallenge } from './challenge-yml.js';

/**
 * challenge.yml import and export (issue 17, ctfcli spec 0.1; docs/challenge-archives.md). The
 * import reads every challenge.yml, turns each into the admin form's input and checks it with the
 * same schema and service checks as Create/Update Challenge, then writes all of them through the
 * same write functions in ONE transaction (files too: see ImportedFiles). A dry run does the whole
 * write and rolls it back, so it finds what the write would refuse (name clashes, cycles).
 */

export interface ImportOptions {
  dryRun: boolean;
  actor?: AuditActor;
}

const YML = 'challenge.yml';

/** Thrown inside the transaction to roll a dry run back after everything was checked. */
class DryRunDone extends Error {}

/** Imports a ZIP held in memory (the admin route). */
export async function importChallengeZip(
  ctx: AppContext,
  zip: Buffer,
  label: string,
  options: ImportOptions,
): Promise<ImportResult> {
  return importFrom(ctx, () => readZipArchive(zip, label), options);
}

/** Imports a ZIP file or a folder of challenge folders (the CLI). */
export async function importChallengePath(
  ctx: AppContext,
  target: string,
  options: ImportOptions,
): Promise<ImportResult> {
  return importFrom(ctx, () => readArchivePath(target), options);
}

async function importFrom(
  ctx: AppContext,
  read: () => Promise<ArchiveFiles>,
  options: ImportOptions,
): Promise<ImportResult> {
  let files: ArchiveFiles;
  try {
    files = await read();
  } catch (err) {
    if (err instanceof ArchiveError)
      return refused([{ file: err.file, line: null, message: err.message }], []);
    throw err;
  }
  return importChallengeArchive(ctx, files, options);
}

function refused(errors: ImportIssue[], warnings: ImportIssue[]): ImportResult {
  return {
    acknowledge: false,
    message: `Nothing was imported: ${errors.length} error(s).`,
    created: [],
    updated: [],
    warnings,
    errors,
  };
}

/** One challenge ready to write: its checked input, its files, and what it requires. */
interface Planned {
  parsed: ParsedChallenge;
  prepared: PreparedChallenge;
  existingId: number | null;
  upload: { name: string; content: Buffer }[];
}

/** A folder name that is safe as a file name: the challenge's name in lower case with dashes. */
export function slugOf(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  return slug || 'challenge';
}

/**
 * What a challenge's `files` become on the site: ZIP archives stay as they are, each under its own
 * name (so an export imports back unchanged); otherwise all of them are packed into one ZIP named
 * after the challenge, each under its path in the challenge folder.
 */
async function packFiles(parsed: ParsedChallenge, archive: ArchiveFiles) {
  const entries = parsed.files.map((p) => ({ path: p, content: archive.get(p)! }));
  if (entries.length === 0) return [];
  const allZips = entries.every((e) => e.path.toLowerCase().endsWith('.zip') && looksLikeZipBytes(e.content));
  if (allZips) return entries.map((e) => ({ name: path.posix.basename(e.path), content: e.content }));
  const rel = (p: string) => (parsed.folder ? p.slice(parsed.folder.length + 1) : p);
  return [
    {
      name: `${slugOf(parsed.input.name)}.zip`,
      content: await zipBuffer(entries.map((e) => ({ name: rel(e.path), content: e.content }))),
    },
  ];
}

/** A deterministic ZIP (fixed times and modes), so the same files always give the same bytes. */
export function zipBuffer(entries: readonly { name: string; content: Buffer }[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const mtime = new Date('2000-01-01T00:00:00Z');
  for (const e of entries) zip.addBuffer(e.content, e.name, { mtime, mode: 0o100644 });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/** Checks and (unless a dry run) writes every challenge of an archive already read. */
export async function importChallengeArchive(
  ctx: AppContext,
  archive: ArchiveFiles,
  options: ImportOptions,
): Promise<ImportResult> {
  const errors: ImportIssue[] = [];
  const warnings: ImportIssue[] = [];
  const actor = options.actor ?? SYSTEM_ACTOR;

  // The challenge folders: every folder holding a challenge.yml. Any other file must lie in one.
  const ymls = [...archive.keys()].filter((p) => p === YML || p.endsWith(`/${YML}`)).sort();
  if (ymls.length === 0) {
    return refused(
      [
        {
          file: '',
          line: null,
          message:
            'The archive holds no challenge.yml: each challenge is a folder with a challenge.yml and its files.',
        },
      ],
      [],
    );
  }
  if (ymls.length > CHALLENGE_ARCHIVE_LIMITS.maxChallenges) {
    return refused(
      [
        {
          file: '',
          line: null,
          message: `The archive holds more than ${CHALLENGE_ARCHIVE_LIMITS.maxChallenges} challenges.`,
        },
      ],
      [],
    );
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
  const existing = new Map((await listChallengeNames(ctx.database.db)).map((c) => [nameKey(c.name), c]));
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
  const duringEvent = await isDuringEvent(ctx);

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
    if (!match && duringEvent) issue(p.line(['name']), MESSAGES.createDisabled);

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
      prepared = await prepareChallenge(checked.data);
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

  if (errors.length > 0) return refused(errors, warnings);

  const created = planned.filter((p) => p.existingId === null).map((p) => p.prepared.fields.name);
  const updated = planned.filter((p) => p.existingId !== null).map((p) => p.prepared.fields.name);

  // Hints of an updated challenge keep their unlocks when the title stays the same.
  const byId = new Map((await listChallengesForAdmin(ctx)).map((c) => [Number(c._id), c]));
  for (const p of planned) {
    if (p.existingId === null || !p.prepared.hints) continue;
    const old = [...(byId.get(p.existingId)?.hints ?? [])];
    for (const h of p.prepared.hints) {
      const i = old.findIndex((o) => o.title === h.title);
      if (i >= 0) h.id = Number(old.splice(i, 1)[0]!._id);
    }
  }

  const staged = new ImportedFiles(ctx, options.dryRun);
  const at = ctx.clock.now();
  let current: Planned | null = null;
  let currentKey: (string | number)[] = [];
  try {
    await ctx.database.transaction(async (trx) => {
      const ids = new Map<string, number>();
      for (const p of planned) {
        current = p;
        currentKey = ['files'];
        for (const f of p.upload) await staged.stage(trx, f, p.existingId, actor, at);
        const fileNames = p.upload.map((f) => f.name);
        currentKey = ['name'];
        const write = { actor, at, ...(p.parsed.isActive !== undefined && { isActive: p.parsed.isActive }) };
        if (p.existingId === null) {
          ids.set(
            nameKey(p.prepared.fields.name),
            await insertPreparedChallenge(trx, p.prepared, fileNames, write),
          );
        } else {
          await updatePreparedChallenge(trx, p.existingId, p.prepared, fileNames, write);
          ids.set(nameKey(p.prepared.fields.name), p.existingId);
        }
      }
      // Prerequisites once every challenge of the archive exists (they may require each other).
      currentKey = ['requirements'];
      for (const p of planned) {
        current = p;
        const own = ids.get(nameKey(p.prepared.fields.name))!;
        const requires = p.parsed.requirements.map(
          (r) => ids.get(nameKey(r)) ?? existing.get(nameKey(r))!.id,
        );
        await writePrerequisites(trx, own, [...new Set(requires)]);
      }
      current = null;
      await recordAudit(trx, {
        actor,
        action: 'challenge.import',
        target: `${planned.length} challenge(s)`,
        details: { created, updated, dry_run: options.dryRun },
        at,
      });
      if (options.dryRun) throw new DryRunDone();
      await staged.publish();
    });
  } catch (err) {
    await staged.undo();
    if (err instanceof DryRunDone) {
      return {
        acknowledge: true,
        message: `Dry run: ${created.length} challenge(s) would be created and ${updated.length} updated; nothing was written.`,
        created,
        updated,
        warnings,
        errors: [],
      };
    }
    if (!(err instanceof DomainError)) throw err;
    const at_ = current as Planned | null;
    return refused(
      [
        {
          file: at_?.parsed.file ?? '',
          line: at_ ? at_.parsed.line(currentKey) : null,
          message: err.message,
        },
      ],
      warnings,
    );
  }
  await staged.finish();
  ctx.bus.publish('challenges');
  if (planned.some((p) => p.upload.length > 0)) ctx.bus.publish('files');
  return {
    acknowledge: true,
    message: `Imported ${planned.length} challenge(s): ${created.length} created, ${updated.length} updated.`,
    created,
    updated,
    warnings,
    errors: [],
  };
}

/**
 * Stored HTML written as challenge.yml Markdown: Markdown passes HTML through, but a blank line
 * would end an HTML block, so blank lines are written as the character reference &#10; (the
 * same text once sanitised). An import of it gives the same HTML back.
 */
export function htmlAsMarkdown(html: string): string {
  return html.replace(/(\n[ \t]*)\n/g, '$1&#10;');
}

const FLAG_EXPORT = {
  static: (content: string) => content,
  case_insensitive: (content: string) => ({ type: 'static', content, data: 'case_insensitive' }),
  regex: (content: string) => ({ type: 'regex', content }),
} as const;

/** One challenge as challenge.yml (keys in ctfcli's order, then ours). */
function challengeYml(c: AdminChallenge, names: ReadonlyMap<string, string>): string {
  const dynamic = c.scoring.type === 'dynamic' ? c.scoring : null;
  const doc: Record<string, unknown> = {
    name: c.name,
    author: c.written_by,
    category: c.category,
    description: htmlAsMarkdown(c.description),
    value: dynamic ? dynamic.initial : c.points,
    type: dynamic ? 'dynamic' : 'standard',
    ...(dynamic && {
      extra: {
        initial: dynamic.initial,
        decay: dynamic.decay,
        minimum: dynamic.minimum,
        function: dynamic.function,
      },
    }),
    difficulty: c.difficulty,
    flags: c.flags.map((f) => FLAG_EXPORT[f.type](f.content)),
    hints: c.hints.map((h) => ({ title: h.title, content: htmlAsMarkdown(h.content), cost: h.cost })),
    files: [...c.hlinks],
    requirements: c.prerequisites.map((id) => names.get(id)).filter((n): n is string => n !== undefined),
    state: c.is_active ? 'visible' : 'hidden',
    ...(c.release_at && { scheduled_at: c.release_at }),
    ...(c.max_attempts !== null && { attempts: c.max_attempts }),
    ...(c.per_team && { per_team: true }),
    ...(c.per_team_on_page && { per_team_on_page: true }),
    version: '0.1',
  };
  return stringify(doc, { lineWidth: 0 });
}

/** Every challenge as folders of challenge.yml and its stored files (export's entries). */
async function exportEntries(ctx: AppContext): Promise<{ name: string; content: Buffer }[]> {
  const challenges = await listChallengesForAdmin(ctx);
  const names = new Map(challenges.map((c) => [c._id, c.name]));
  const used = new Set<string>();
  const entries: { name: string; content: Buffer }[] = [];
  for (const c of challenges) {
    const base = slugOf(c.name);
    let folder = base;
    for (let n = 2; used.has(folder); n += 1) folder = `${base}-${n}`;
    used.add(folder);
    const files: string[] = [];
    for (const f of c.hlinks) {
      const bytes = await readStored(ctx.config.uploadDir, f);
      if (!bytes) {
        ctx.log.warn({ file: f, challenge: c.name }, 'export: an attached file is missing on disk');
        continue;
      }
      files.push(f);
      entries.push({ name: `${folder}/${f}`, content: bytes });
    }
    entries.push({
      name: `${folder}/${YML}`,
      content: Buffer.from(challengeYml({ ...c, hlinks: files }, names)),
    });
  }
  return entries;
}

/** The export as one ZIP (the admin route). */
export async function exportChallengeZip(ctx: AppContext, actor: AuditActor = SYSTEM_ACTOR): Promise<Buffer> {
  const entries = await exportEntries(ctx);
  await auditExport(ctx, actor, entries.filter((e) => e.name.endsWith(`/${YML}`)).length, 'zip');
  return zipBuffer(entries);
}

/** The export written into a folder (the CLI); refuses to write outside it. */
export async function exportChallengesTo(ctx: AppContext, dir: string): Promise<number> {
  const entries = await exportEntries(ctx);
  const root = path.resolve(dir);
  for (const e of entries) {
    const target = path.resolve(root, e.name);
    if (!target.startsWith(`${root}${path.sep}`)) throw new Error(`refusing to write outside ${root}`);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, e.content);
  }
  const count = entries.filter((e) => e.name.endsWith(`/${YML}`)).length;
  await auditExport(ctx, SYSTEM_ACTOR, count, root);
  return count;
}

async function auditExport(ctx: AppContext, actor: AuditActor, count: number, to: string) {
  const at = ctx.clock.now();
  await ctx.database.transaction((trx) =>
    recordAudit(trx, {
      actor,
      action: 'challenge.export',
      target: `${count} challenge(s)`,
      details: { to },
      at,
    }),
  );
}
