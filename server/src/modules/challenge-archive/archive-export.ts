import type { AdminChallenge } from '@ctf/contract';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import type { AppContext } from '../../context.js';
import { SYSTEM_ACTOR, recordAudit, type AuditActor } from '../audit/audit.service.js';
import { listChallengesForAdmin, type ChallengeActor } from '../challenges/challenges.service.js';
import { readStored } from '../files/files.storage.js';
import { YML, slugOf, zipBuffer } from './archive-packing.js';
import { instanceYml } from './instance-yml.js';
import { solutionYml } from './solution-yml.js';

// The export: every challenge as a folder of challenge.yml and its stored files, which the import
// (archive.service.ts) reads back unchanged.

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
    ...instanceYml(c.instance),
    ...solutionYml(c.solution),
    version: '0.1',
  };
  return stringify(doc, { lineWidth: 0 });
}

/**
 * Every challenge the actor may work on (an author: those it owns) as folders of challenge.yml
 * and its stored files (export's entries).
 */
async function exportEntries(
  ctx: AppContext,
  actor: ChallengeActor,
): Promise<{ name: string; content: Buffer }[]> {
  const challenges = await listChallengesForAdmin(ctx, actor);
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
export async function exportChallengeZip(
  ctx: AppContext,
  actor: ChallengeActor = SYSTEM_ACTOR,
): Promise<Buffer> {
  const entries = await exportEntries(ctx, actor);
  await auditExport(ctx, actor, entries.filter((e) => e.name.endsWith(`/${YML}`)).length, 'zip');
  return zipBuffer(entries);
}

/** The export written into a folder (the CLI); refuses to write outside it. */
export async function exportChallengesTo(ctx: AppContext, dir: string): Promise<number> {
  const entries = await exportEntries(ctx, SYSTEM_ACTOR);
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
