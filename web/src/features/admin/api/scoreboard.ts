import { adminApi } from '@ctf/contract';
import { callApi } from '../../../lib/api';

/** POST /api/admin/scoreboard/freeze {freeze_at}: sets the freeze (ISO 8601) or lifts it (null). */
export const setFreeze = (freezeAt: string | null) =>
  callApi(adminApi.freezeScoreboard, { freeze_at: freezeAt });

/** The admin exports, as links the browser downloads (the session cookie goes with them). */
export const EXPORT_LINKS = [
  { href: adminApi.exportScoreboardCsv.path, label: 'Scoreboard (CSV)' },
  { href: adminApi.exportScoreboardJson.path, label: 'Scoreboard (JSON)' },
  { href: adminApi.exportSolvesCsv.path, label: 'Solves (CSV)' },
  { href: adminApi.exportSolvesJson.path, label: 'Solves (JSON)' },
] as const;

/** The event's static archive (issue 32): every page and file of the event, one ZIP. */
export const ARCHIVE_LINK = { href: adminApi.eventArchive.path, label: 'Download archive (ZIP)' } as const;
