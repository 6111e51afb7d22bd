import type { Executor } from '../../db/schema.js';
import type { SolutionVisibility } from '@ctf/contract';

export interface SolutionRow {
  challenge_id: number;
  content: string;
  html: string;
  visibility: SolutionVisibility;
}

/** Every challenge's solution, by challenge id. */
export async function listSolutions(db: Executor): Promise<Map<number, SolutionRow>> {
  const rows = await db
    .selectFrom('challenge_solutions')
    .select(['challenge_id', 'content', 'html', 'visibility'])
    .execute();
  return new Map(rows.map((r) => [r.challenge_id, r]));
}

export async function findSolution(db: Executor, challengeId: number): Promise<SolutionRow | null> {
  return (
    (await db
      .selectFrom('challenge_solutions')
      .select(['challenge_id', 'content', 'html', 'visibility'])
      .where('challenge_id', '=', challengeId)
      .executeTakeFirst()) ?? null
  );
}

/** Makes a challenge's solution exactly this (null: none) with these stored files. */
export async function replaceSolution(
  db: Executor,
  challengeId: number,
  solution: Omit<SolutionRow, 'challenge_id'> | null,
  fileIds: readonly number[],
): Promise<void> {
  await db.deleteFrom('challenge_solution_files').where('challenge_id', '=', challengeId).execute();
  await db.deleteFrom('challenge_solutions').where('challenge_id', '=', challengeId).execute();
  if (!solution) return;
  await db
    .insertInto('challenge_solutions')
    .values({ challenge_id: challengeId, ...solution })
    .execute();
  if (fileIds.length > 0)
    await db
      .insertInto('challenge_solution_files')
      .values(fileIds.map((file_id) => ({ challenge_id: challengeId, file_id })))
      .execute();
}

/** Challenge id -> the names of its solution's stored files, alphabetically. */
export async function listSolutionFileNames(
  db: Executor,
  challengeId?: number,
): Promise<Map<number, { name: string; size: number }[]>> {
  let query = db
    .selectFrom('challenge_solution_files')
    .innerJoin('files', 'files.id', 'challenge_solution_files.file_id')
    .select(['challenge_solution_files.challenge_id', 'files.name', 'files.size'])
    .orderBy('files.name');
  if (challengeId !== undefined)
    query = query.where('challenge_solution_files.challenge_id', '=', challengeId);
  const out = new Map<number, { name: string; size: number }[]>();
  for (const r of await query.execute()) {
    const list = out.get(r.challenge_id) ?? [];
    list.push({ name: r.name, size: r.size });
    out.set(r.challenge_id, list);
  }
  return out;
}

/** The challenges whose solution lists this stored file. */
export async function challengesOfSolutionFile(db: Executor, fileId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('challenge_solution_files')
    .select('challenge_id')
    .where('file_id', '=', fileId)
    .execute();
  return rows.map((r) => r.challenge_id);
}

/**
 * Whether a competitor solved a challenge: a solve of the user's (scored or practice) or, on a
 * team, one recorded with the team.
 */
export async function competitorSolved(
  db: Executor,
  challengeId: number,
  userId: number,
  teamId: number | null,
): Promise<boolean> {
  const scored = await db
    .selectFrom('solves')
    .select('id')
    .where('challenge_id', '=', challengeId)
    .where((w) =>
      teamId === null
        ? w('user_id', '=', userId)
        : w.or([w('user_id', '=', userId), w('team_id', '=', teamId)]),
    )
    .limit(1)
    .executeTakeFirst();
  if (scored) return true;
  const practice = await db
    .selectFrom('practice_solves')
    .select('id')
    .where('challenge_id', '=', challengeId)
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return practice !== undefined;
}
