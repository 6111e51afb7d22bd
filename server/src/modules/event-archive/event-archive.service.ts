import { adminApi, challengesApi } from '@ctf/contract';
import { readdir } from 'node:fs/promises';
import type { AppContext } from '../../context.js';
import { archiveHtml } from '../../lib/sanitize-html.js';
import { SYSTEM_ACTOR, recordAudit, type AuditActor } from '../audit/audit.service.js';
import { listAnnouncementsForAdmin } from '../announcements/announcements.service.js';
import { slugOf } from '../challenge-archive/archive-packing.js';
import { listReleasedChallenges } from '../challenges/challenges.service.js';
import { readEventState } from '../event-state/event-state.service.js';
import { openStored } from '../files/files.storage.js';
import { getScoreView } from '../scoreboard/scoreboard.service.js';
import { graphSeries } from '../scoreboard/scoreboard.views.js';
import {
  NO_ADDENDA,
  readAddenda,
  solutionSection,
  writeWriteupFile,
  writeupsSection,
} from './archive-addenda.js';
import { scoreGraphFigure } from './archive-graph.js';
import { STYLE_CSS, relative } from './archive-html.js';
import {
  announcementsPage,
  challengePage,
  challengesIndexPage,
  indexPage,
  scoreboardPage,
  type ArchiveData,
} from './archive-pages.js';
import { directorySink, zipSink, type ArchiveSink } from './archive-sink.js';

/**
 * The event's static archive (issue 32; docs/decisions/0012-archive.md): the pages and files of
 * the event as the public sees it now, written through a sink (a folder or a streamed ZIP). Data
 * comes from the other modules' services: the public board (as of a freeze not lifted), the
 * released challenges, their files, the announcements and the divisions.
 */

/** What was written: the counts the CLI prints and the audit row keeps. */
export interface ArchiveSummary {
  pages: number;
  files: number;
  challenges: number;
  competitors: number;
  /** Published writeups listed (links and files). */
  writeups: number;
}

/** The score graph's competitors (the index page's). */
const GRAPH_TOP = 10;

async function readArchiveData(ctx: AppContext): Promise<ArchiveData> {
  const [state, view, announcements] = await Promise.all([
    readEventState(ctx),
    getScoreView(ctx, { live: false }),
    listAnnouncementsForAdmin(ctx),
  ]);
  const { board } = view;
  const challenges = (await listReleasedChallenges(ctx, board)).map((c) => ({
    ...c,
    page: `challenges/${c._id}-${slugOf(c.name)}.html`,
  }));
  const event = {
    name: state.settings.name,
    tagline: state.settings.tagline,
    start: state.settings.eventStart,
    end: state.settings.eventEnd,
  };
  const sanitisedAnnouncements = [];
  for (const a of announcements) {
    sanitisedAnnouncements.push({
      title: a.title,
      pinned: a.pinned,
      created_at: a.created_at,
      body_html: await archiveHtml(a.body_html, () => null),
    });
  }
  return {
    event,
    generatedAt: ctx.clock.now().toISOString(),
    ended: state.endMs <= ctx.clock.now().getTime(),
    frozenAt: view.frozenAt,
    board,
    divisions: [...board.divisions].map(([id, name]) => ({
      id,
      name,
      page: `scoreboard-${id}-${slugOf(name)}.html`,
    })),
    challenges,
    announcements: sanitisedAnnouncements,
    graph: scoreGraphFigure(graphSeries(board, GRAPH_TOP), event),
  };
}

/** The stored file's bytes as a stream of chunks, closed at the end (or on an error). */
async function* storedChunks(ctx: AppContext, name: string): AsyncGenerator<Buffer> {
  const opened = await openStored(ctx.config.uploadDir, name);
  if (!opened) return;
  try {
    yield* opened.handle.createReadStream({ autoClose: false }) as AsyncIterable<Buffer>;
  } finally {
    await opened.handle.close();
  }
}

/** Writes the whole archive through `sink`: index.html at its root. */
export async function buildEventArchive(ctx: AppContext, sink: ArchiveSink): Promise<ArchiveSummary> {
  const data = await readArchiveData(ctx);
  let pages = 0;
  const page = async (name: string, content: string | Iterable<string>) => {
    await sink.write(name, typeof content === 'string' ? [content] : content);
    pages += 1;
  };
  await sink.write('style.css', [STYLE_CSS]);
  await page('index.html', indexPage(data));
  await page('scoreboard.html', scoreboardPage(data));
  for (const d of data.divisions) await page(d.page, scoreboardPage(data, d));
  await page('announcements.html', announcementsPage(data));
  await page('challenges/index.html', challengesIndexPage(data));

  // Files: those of the released challenges, each once, under files/ (the name is safe: checked
  // as an upload's), and only when it is on disk.
  const files = new Set<string>();
  const missing = new Set<string>();
  const archived = async (name: string): Promise<boolean> => {
    if (files.has(name)) return true;
    if (missing.has(name) || adminApi.fileNameProblem(name)) return false;
    const opened = await openStored(ctx.config.uploadDir, name);
    if (!opened) {
      missing.add(name);
      ctx.log.warn({ file: name }, 'archive: an attached file is missing on disk');
      return false;
    }
    await opened.handle.close();
    await sink.write(`files/${name}`, storedChunks(ctx, name));
    files.add(name);
    return true;
  };
  // Solutions and published writeups only once the event has ended (what the site shows then).
  const addenda = data.ended
    ? await readAddenda(
        ctx,
        data.challenges.map((c) => Number(c._id)),
      )
    : NO_ADDENDA;
  let writeups = 0;
  for (const c of data.challenges) {
    const own: string[] = [];
    for (const f of c.hlinks) if (await archived(f)) own.push(f);
    const solution = addenda.solutions.get(Number(c._id));
    const solutionFiles: string[] = [];
    for (const f of solution?.files ?? []) if (await archived(f)) solutionFiles.push(f);
    const local = (href: string) => {
      if (!href.startsWith(challengesApi.DOWNLOAD_PATH_PREFIX)) return null;
      let name: string;
      try {
        name = decodeURIComponent(href.slice(challengesApi.DOWNLOAD_PATH_PREFIX.length).split(/[?#]/)[0]!);
      } catch {
        return null;
      }
      return own.includes(name) || solutionFiles.includes(name)
        ? relative(c.page, `files/${encodeURIComponent(name)}`)
        : null;
    };
    const sections: string[] = [];
    if (solution)
      sections.push(solutionSection(c.page, await archiveHtml(solution.html, local), solutionFiles));
    const handedIn = [];
    for (const w of addenda.writeups.get(Number(c._id)) ?? []) {
      handedIn.push({ entry: w, archived: w.file !== undefined && (await writeWriteupFile(ctx, sink, w)) });
    }
    writeups += handedIn.length;
    sections.push(writeupsSection(c.page, handedIn));
    const descriptionHtml = await archiveHtml(c.description, local);
    await page(c.page, challengePage(data, c, { descriptionHtml, files: own, sections }));
  }
  return {
    pages,
    files: files.size,
    challenges: data.challenges.length,
    competitors: data.board.ranked.length,
    writeups,
  };
}

async function auditArchive(ctx: AppContext, actor: AuditActor, summary: ArchiveSummary | null, to: string) {
  const at = ctx.clock.now();
  await ctx.database.transaction((trx) =>
    recordAudit(trx, {
      actor,
      action: 'event.archive',
      target: 'event archive',
      details: { to, ...(summary ?? {}) },
      at,
    }),
  );
}

/** A one-line refusal of the command line (printed as it is). */
export class ArchiveRefusal extends Error {}

/** `npm run archive -- DIR`: the archive written into a new or empty folder. */
export async function writeArchiveTo(ctx: AppContext, dir: string): Promise<ArchiveSummary> {
  const existing = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw new ArchiveRefusal(`${dir} cannot be read as a folder: ${err.code ?? err.message}.`);
  });
  if (existing.length > 0)
    throw new ArchiveRefusal(`${dir} is not empty: build the archive into a new or empty folder.`);
  const summary = await buildEventArchive(ctx, directorySink(dir));
  await auditArchive(ctx, SYSTEM_ACTOR, summary, dir);
  return summary;
}

/**
 * The archive as a ZIP streamed while it is built (GET /api/admin/archive.zip): audited when the
 * download starts; a failure midway breaks the download instead of ending it as if complete.
 */
export async function streamArchiveZip(ctx: AppContext, actor: AuditActor): Promise<NodeJS.ReadableStream> {
  await auditArchive(ctx, actor, null, 'zip');
  const sink = zipSink();
  void buildEventArchive(ctx, sink).then(
    () => sink.end(),
    (err: Error) => {
      ctx.log.error({ err }, 'archive: the ZIP could not be built');
      sink.fail(err);
    },
  );
  return sink.output;
}
