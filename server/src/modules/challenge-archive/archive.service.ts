import { INSTANCE_MESSAGES, adminApi, nameKey, type ImportIssue, type ImportResult } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { DomainError, conflict } from '../../lib/errors.js';
import { SYSTEM_ACTOR, recordAudit } from '../audit/audit.service.js';
import {
  adminOnlyInstanceChanges,
  challengeCount,
  listChallengesForAdmin,
  type ChallengeActor,
} from '../challenges/challenges.service.js';
import {
  insertPreparedChallenge,
  updatePreparedChallenge,
  writePrerequisites,
} from '../challenges/challenge-writes.js';
import { ImportedFiles } from '../files/files.service.js';
import { ArchiveError, readArchivePath, readZipArchive, type ArchiveFiles } from './archive-reader.js';
import { planImport, type Planned } from './import-plan.js';

/**
 * challenge.yml import and export (issue 17, ctfcli spec 0.1; docs/challenge-archives.md). The
 * import reads every challenge.yml, turns each into the admin form's input and checks it with the
 * same schema and service checks as Create/Update Challenge, then writes all of them through the
 * same write functions in ONE transaction (files too: see ImportedFiles). A dry run does the whole
 * write and rolls it back, so it finds what the write would refuse (name clashes, cycles).
 * The checks: import-plan.ts; the export: archive-export.ts.
 */

export interface ImportOptions {
  dryRun: boolean;
  /**
   * Who imports: a new challenge is theirs, and an existing one must be (docs/decisions/0014); an
   * author (role) may not change what an instance runs.
   */
  actor?: ChallengeActor;
}

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

/** Refusal of the sample challenges once the site has any challenge. */
export const SAMPLES_REFUSED = 'The sample challenges can only be added to a site without challenges.';

/**
 * The set-up checklist's "Add the sample challenges": imports docs/sample-challenges like any
 * import (same checks, one transaction, the create lock of the event window), only on a site
 * without a challenge.
 */
export async function addSampleChallenges(ctx: AppContext, actor: ChallengeActor): Promise<ImportResult> {
  if ((await challengeCount(ctx)) > 0) throw conflict(SAMPLES_REFUSED);
  return importChallengePath(ctx, ctx.config.sampleChallengesDir, { dryRun: false, actor });
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
    message: adminApi.importRefusedText(errors),
    created: [],
    updated: [],
    warnings,
    errors,
  };
}

/** Checks and (unless a dry run) writes every challenge of an archive already read. */
export async function importChallengeArchive(
  ctx: AppContext,
  archive: ArchiveFiles,
  options: ImportOptions,
): Promise<ImportResult> {
  const actor = options.actor ?? SYSTEM_ACTOR;
  const { planned, existing, errors, warnings } = await planImport(ctx, archive);
  // As the admin form's 403: only an admin changes an instance's image, capabilities, writable
  // root or network access.
  if (options.actor?.role !== undefined && options.actor.role !== 'admin') {
    for (const p of planned) {
      const fields = await adminOnlyInstanceChanges(ctx.database.db, p.existingId, p.parsed.input.instance);
      if (fields.length > 0)
        errors.push({ file: p.parsed.file, line: null, message: INSTANCE_MESSAGES.adminOnly(fields) });
    }
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
