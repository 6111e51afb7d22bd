import {
  LOGO_TYPES,
  SETTINGS_LIMITS,
  settingsApi,
  sniffLogoType,
  type AdminSettings,
  type EventSettings,
  type LogoType,
} from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { sha256 } from '../../lib/crypto.js';
import { DomainError, badInput } from '../../lib/errors.js';
import { CachedValue } from '../../lib/invalidation.js';
import { renderMarkdown } from '../../lib/markdown.js';
import { changedFields, recordAudit, type AuditActor } from '../audit/audit.service.js';
import { publishLiveEvent } from '../events/events.service.js';
import { DEFAULT_HTML, defaultSettings } from './settings.defaults.js';
import {
  ACTIVATED_KEY,
  HTML_PREFIX,
  LOGO_DATA_KEY,
  LOGO_META_KEY,
  SETTING_PREFIX,
  claimTransition,
  readSettingRow,
  readSettingRows,
  readTransitionKeys,
  writeSettingRows,
} from './settings.repo.js';

const MARKDOWN_KEYS = ['aboutMd', 'rulesMd', 'faqMd'] as const;
type MarkdownKey = (typeof MARKDOWN_KEYS)[number];

/** A timed open or close that has not happened yet. */
export interface PendingTransition {
  /** Names the transition and its scheduled time: moving the date makes a new one. */
  key: string;
  kind: 'open' | 'close';
  at: number;
}

/**
 * Everything the site's settings decide, read once from the database and kept in memory until a
 * write publishes 'site' (in this process at once, in the others through the bus): the hot
 * paths (the flag gate, the challenge list, site info) read it without a query.
 */
export interface SiteState {
  settings: EventSettings;
  html: Record<MarkdownKey, string>;
  logo: { type: LogoType; hash: string } | null;
  /** The admin's site switch (DESIGN.md §4), as the timed transitions left it. */
  activated: boolean;
  startMs: number;
  endMs: number;
  pending: PendingTransition[];
  /** When the first pending transition is due (Infinity: none). */
  nextTransitionAt: number;
}

function parseSetting(key: keyof EventSettings, raw: string, fallback: EventSettings): unknown {
  try {
    const value: unknown = JSON.parse(raw);
    const parsed = settingsApi.EventSettings.shape[key].safeParse(value);
    return parsed.success ? parsed.data : fallback[key];
  } catch {
    return fallback[key];
  }
}

async function buildSiteState(ctx: AppContext): Promise<SiteState> {
  const [rows, transitions] = await Promise.all([
    readSettingRows(ctx.database.db),
    readTransitionKeys(ctx.database.db),
  ]);
  const defaults = defaultSettings(ctx.config);
  const settings = { ...defaults } as Record<keyof EventSettings, unknown>;
  for (const key of settingsApi.SETTING_KEYS) {
    const raw = rows.get(SETTING_PREFIX + key);
    if (raw !== undefined) settings[key] = parseSetting(key, raw, defaults);
  }
  const s = settings as EventSettings;
  const html = {} as Record<MarkdownKey, string>;
  for (const key of MARKDOWN_KEYS) {
    html[key] = rows.has(SETTING_PREFIX + key) ? (rows.get(HTML_PREFIX + key) ?? '') : DEFAULT_HTML[key];
  }
  let logo: SiteState['logo'] = null;
  const logoMeta = rows.get(LOGO_META_KEY);
  if (logoMeta) {
    const meta = JSON.parse(logoMeta) as { type: LogoType; hash: string };
    if (LOGO_TYPES.includes(meta.type)) logo = meta;
  }
  const startMs = Date.parse(s.eventStart);
  const endMs = Date.parse(s.eventEnd);
  const pending: PendingTransition[] = [];
  const openKey = `open@${s.eventStart}`;
  const closeKey = `close@${s.eventEnd}`;
  if (s.autoOpen && !transitions.has(openKey)) pending.push({ key: openKey, kind: 'open', at: startMs });
  if (s.autoClose && !transitions.has(closeKey)) pending.push({ key: closeKey, kind: 'close', at: endMs });
  return {
    settings: s,
    html,
    logo,
    // A new database starts inactive so nothing leaks while a club prepares (DESIGN.md §4).
    activated: rows.get(ACTIVATED_KEY) === 'true',
    startMs,
    endMs,
    pending,
    nextTransitionAt: Math.min(Infinity, ...pending.map((p) => p.at)),
  };
}

const caches = new WeakMap<AppContext, CachedValue<SiteState>>();

function stateCache(ctx: AppContext): CachedValue<SiteState> {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new CachedValue(ctx.bus, ['site'], () => buildSiteState(ctx));
    caches.set(ctx, cache);
  }
  return cache;
}

/**
 * The site's settings and switch, from memory. A timed transition that has come due is applied
 * first (DESIGN.md §8: time is a read-time input), so the first read after the start or the end
 * time sees it, in every process, whether or not a timer ran.
 */
export async function readSiteState(ctx: AppContext): Promise<SiteState> {
  const state = await stateCache(ctx).get();
  if (ctx.clock.now().getTime() < state.nextTransitionAt) return state;
  // Readers that arrive together wait for one attempt instead of queueing a transaction each.
  let applying = applyingTransitions.get(ctx);
  if (!applying) {
    applying = applyDueTransitions(ctx, state).finally(() => applyingTransitions.delete(ctx));
    applyingTransitions.set(ctx, applying);
  }
  await applying;
  return stateCache(ctx).get();
}

const applyingTransitions = new WeakMap<AppContext, Promise<void>>();

/**
 * Applies the due transitions, each exactly once across processes: the insert of its row is the
 * claim, and the switch changes in the same transaction. The process that claims publishes
 * 'site'; every process that tried reads the state again (the row is there now).
 * - open: the site switch turns on at the start time (not once the event is over);
 * - close: with afterEnd 'open' the switch turns off at the end time (the event closes on time);
 *   'closed' and 'practice' apply from the clock anyway, so the transition is only recorded.
 */
async function applyDueTransitions(ctx: AppContext, state: SiteState): Promise<void> {
  const now = ctx.clock.now();
  const due = state.pending.filter((p) => p.at <= now.getTime()).sort((a, b) => a.at - b.at);
  let applied = false;
  await ctx.database.transaction(async (trx) => {
    for (const t of due) {
      let action: string;
      let activated: boolean | null = null;
      if (t.kind === 'open') {
        if (now.getTime() < state.endMs) {
          action = 'open';
          activated = true;
        } else action = 'skipped: the event was already over';
      } else if (state.settings.afterEnd === 'open') {
        action = 'close';
        activated = false;
      } else action = `after the end: ${state.settings.afterEnd}`;
      if (!(await claimTransition(trx, { key: t.key, action, applied_at: now.toISOString() }))) continue;
      applied = true;
      if (activated !== null) await writeSettingRows(trx, new Map([[ACTIVATED_KEY, String(activated)]]));
    }
  });
  if (applied) {
    ctx.log.info({ transitions: due.map((t) => t.key) }, 'timed site transition applied');
    ctx.bus.publish('site');
    const { activated } = await stateCache(ctx).get();
    await publishLiveEvent(ctx, 'site', { activated });
  } else stateCache(ctx).invalidate();
}

/**
 * One setting as stored now, read from the database rather than the kept state: for jobs that run
 * rarely (the submission log's pruning), which then never fill or hold the state early.
 */
export async function readStoredSetting<K extends keyof EventSettings>(
  ctx: AppContext,
  key: K,
): Promise<EventSettings[K]> {
  const defaults = defaultSettings(ctx.config);
  const raw = await readSettingRow(ctx.database.db, SETTING_PREFIX + key);
  return (raw === null ? defaults[key] : parseSetting(key, raw, defaults)) as EventSettings[K];
}

/** The settings as the admin panel shows them. */
export async function getAdminSettings(ctx: AppContext): Promise<AdminSettings> {
  return presentAdminSettings(await readSiteState(ctx));
}

function presentAdminSettings(state: SiteState): AdminSettings {
  return { ...state.settings, logoUrl: logoUrlOf(state) };
}

/** The logo's URL, versioned by its content so browsers may keep it. */
export function logoUrlOf(state: SiteState): string | null {
  return state.logo ? `${settingsApi.LOGO_PATH}?v=${state.logo.hash.slice(0, 16)}` : null;
}

/**
 * Saves the settings a (partial) body names; the others keep their values. Rules that span two
 * fields (the end after the start) are checked against the merged result. Every process serves
 * the new values from its next request (the bus carries 'site').
 */
export async function updateSettings(
  ctx: AppContext,
  changes: Partial<EventSettings>,
  actor: AuditActor,
): Promise<AdminSettings> {
  const rows = new Map<string, string>();
  for (const key of MARKDOWN_KEYS) {
    const md = changes[key];
    if (md !== undefined) rows.set(HTML_PREFIX + key, await renderMarkdown(md));
  }
  for (const key of settingsApi.SETTING_KEYS) {
    if (changes[key] !== undefined) rows.set(SETTING_PREFIX + key, JSON.stringify(changes[key]));
  }
  if (rows.size > 0) {
    const before = (await readSiteState(ctx)).settings;
    await ctx.database.transaction(async (trx) => {
      // Checked inside the transaction against the stored values, so two partial saves that race
      // (one moving the start, one the end) cannot together leave the end before the start.
      const stored = await readSettingRows(trx);
      const current = (key: 'eventStart' | 'eventEnd') => {
        const raw = stored.get(SETTING_PREFIX + key);
        return changes[key] ?? (raw ? (JSON.parse(raw) as string) : defaultSettings(ctx.config)[key]);
      };
      if (Date.parse(current('eventEnd')) <= Date.parse(current('eventStart')))
        throw badInput('Invalid eventEnd: the end must be after the start');
      await writeSettingRows(trx, rows);
      const named = Object.fromEntries(
        Object.keys(changes).map((k) => [k, before[k as keyof EventSettings]]),
      );
      await recordAudit(trx, {
        actor,
        action: 'settings.update',
        target: 'event settings',
        details: changedFields(named, changes),
        at: ctx.clock.now(),
      });
    });
    ctx.bus.publish('site');
    await publishLiveEvent(ctx, 'site', { activated: (await readSiteState(ctx)).activated });
  }
  return presentAdminSettings(await readSiteState(ctx));
}

/** Refused logo uploads name the field ('file') like every other bad setting. */
export function logoTooLarge(): DomainError {
  return new DomainError(
    'too_large',
    `Invalid file: the logo must be at most ${SETTINGS_LIMITS.logoMaxBytes / 1024 / 1024} MB`,
  );
}

/** Stores a new logo: PNG, JPEG or WebP as its first bytes say (the name and type sent are ignored). */
export async function saveLogo(ctx: AppContext, bytes: Buffer, actor: AuditActor): Promise<string> {
  if (bytes.length === 0) throw badInput('Invalid file: the logo is empty');
  if (bytes.length > SETTINGS_LIMITS.logoMaxBytes) throw logoTooLarge();
  const type = sniffLogoType(bytes);
  if (!type) throw badInput('Invalid file: the logo must be a PNG, JPEG or WebP image');
  const hash = sha256(bytes.toString('base64'));
  await ctx.database.transaction(async (trx) => {
    await writeSettingRows(
      trx,
      new Map([
        [LOGO_DATA_KEY, JSON.stringify({ type, hash, data: bytes.toString('base64') })],
        [LOGO_META_KEY, JSON.stringify({ type, hash })],
      ]),
    );
    await recordAudit(trx, {
      actor,
      action: 'settings.update',
      target: 'event settings',
      details: { logo: { type, bytes: bytes.length } },
      at: ctx.clock.now(),
    });
  });
  ctx.bus.publish('site');
  await publishLiveEvent(ctx, 'site', { activated: (await readSiteState(ctx)).activated });
  return logoUrlOf(await readSiteState(ctx))!;
}

type Logo = { type: LogoType; hash: string; bytes: Buffer };
const logoCaches = new WeakMap<AppContext, CachedValue<Logo | null>>();

/** The logo's bytes (read only when someone fetches it; kept until the next settings write). */
export async function readLogo(ctx: AppContext): Promise<Logo | null> {
  let cache = logoCaches.get(ctx);
  if (!cache) {
    cache = new CachedValue<Logo | null>(ctx.bus, ['site'], async () => {
      const raw = await readSettingRow(ctx.database.db, LOGO_DATA_KEY);
      if (!raw) return null;
      const logo = JSON.parse(raw) as { type: LogoType; hash: string; data: string };
      return { type: logo.type, hash: logo.hash, bytes: Buffer.from(logo.data, 'base64') };
    });
    logoCaches.set(ctx, cache);
  }
  return cache.get();
}
