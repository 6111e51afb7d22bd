import { LOGO_TYPES, settingsApi, type EventSettings, type LogoType } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/schema.js';
import { LISTENER_PRIORITY } from '../../lib/domain-events.js';
import { CachedValue } from '../../lib/invalidation.js';
import {
  DEFAULT_HTML,
  FIRST_RUN_SWITCHES,
  FIRST_RUN_WINDOW_MS,
  defaultSettings,
  firstRunWindow,
} from './event-state.defaults.js';
import {
  claimTransition,
  insertSettingRowsIfAbsent,
  readSettingRow,
  readSettingRows,
  readTransitionKeys,
  writeSettingRows,
} from './event-state.repo.js';
import {
  ACTIVATED_KEY,
  FREEZE_KEY,
  HTML_PREFIX,
  LOGO_META_KEY,
  MARKDOWN_KEYS,
  SETTING_PREFIX,
  type MarkdownKey,
} from './setting-keys.js';

/**
 * The event's state: what every module reads about the event (the site switch, the window, the
 * after-end mode, the freeze time, the settings). The bottom of the server's modules: it imports
 * none of them. Kept in memory until a write publishes 'site' (in this process at once, in the
 * others through the bus), so the hot paths (the flag gate, the challenge list, site info) read
 * it without a query. Time is a read-time input (docs/product.md §15): whether the window is open, the
 * freeze in force or a timed switch due is decided from the clock at each read.
 */

/** A timed open or close that has not happened yet. */
export interface PendingTransition {
  /** Names the transition and its scheduled time: moving the date makes a new one. */
  key: string;
  kind: 'open' | 'close';
  at: number;
}

export interface EventState {
  settings: EventSettings;
  html: Record<MarkdownKey, string>;
  logo: { type: LogoType; hash: string } | null;
  /** The admin's site switch (docs/product.md §12), as the timed transitions left it. */
  activated: boolean;
  startMs: number;
  endMs: number;
  /** The freeze time set (in force or still to come), or null: the stored one, else FREEZE_AT. */
  freezeAt: Date | null;
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

async function buildEventState(ctx: AppContext): Promise<EventState> {
  const [rows, transitions] = await Promise.all([
    readSettingRows(ctx.database.db),
    readTransitionKeys(ctx.database.db),
  ]);
  const defaults = defaultSettings(ctx.config, ctx.clock.now());
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
  let logo: EventState['logo'] = null;
  const logoMeta = rows.get(LOGO_META_KEY);
  if (logoMeta) {
    const meta = JSON.parse(logoMeta) as { type: LogoType; hash: string };
    if (LOGO_TYPES.includes(meta.type)) logo = meta;
  }
  const storedFreeze = rows.get(FREEZE_KEY);
  const freezeAt =
    storedFreeze === undefined ? ctx.config.freezeAt : storedFreeze === '' ? null : new Date(storedFreeze);
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
    // A new database starts inactive so nothing leaks while a club prepares (docs/product.md §12).
    activated: rows.get(ACTIVATED_KEY) === 'true',
    startMs,
    endMs,
    freezeAt,
    pending,
    nextTransitionAt: Math.min(Infinity, ...pending.map((p) => p.at)),
  };
}

const caches = new WeakMap<AppContext, CachedValue<EventState>>();

function stateCache(ctx: AppContext): CachedValue<EventState> {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new CachedValue(ctx.bus, ['site'], () => buildEventState(ctx));
    caches.set(ctx, cache);
  }
  return cache;
}

/**
 * The event's state, from memory. A timed transition that has come due is applied first, so the
 * first read after the start or the end time sees it, in every process, whether or not a timer ran.
 */
export async function readEventState(ctx: AppContext): Promise<EventState> {
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
 * 'site' and announces the switch; every process that tried reads the state again.
 * - open: the site switch turns on at the start time (not once the event is over);
 * - close: with afterEnd 'open' the switch turns off at the end time (the event closes on time);
 *   'closed' and 'practice' apply from the clock anyway, so the transition is only recorded.
 */
async function applyDueTransitions(ctx: AppContext, state: EventState): Promise<void> {
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
    await ctx.domainEvents.emit('site.switched-on-time', { activated });
  } else stateCache(ctx).invalidate();
}

/**
 * At start-up, before anything reads the state: a site without EVENT_START and EVENT_END whose
 * database holds no window yet stores one (firstRunWindow), so a restart keeps it (and every
 * process of the site agrees: the first insert wins, the others insert nothing). A database that
 * held neither end is new: it also stores autoOpen and autoClose on, so play opens and closes with
 * the window; a site that already had a window keeps its own switches.
 */
export async function ensureEventWindow(ctx: AppContext): Promise<void> {
  if (ctx.config.eventWindow) return;
  const startKey = SETTING_PREFIX + 'eventStart';
  const endKey = SETTING_PREFIX + 'eventEnd';
  await ctx.database.transaction(async (trx) => {
    const stored = await readSettingRows(trx);
    const at = (key: string) => {
      const raw = stored.get(key);
      const ms = raw === undefined ? NaN : Date.parse(JSON.parse(raw) as string);
      return Number.isNaN(ms) ? null : ms;
    };
    const [storedStart, storedEnd] = [at(startKey), at(endKey)];
    if (storedStart !== null && storedEnd !== null) return;
    // A site that saved one end of its window keeps it; the other is a week away from it.
    let { start, end } = firstRunWindow(ctx.clock.now());
    if (storedStart !== null)
      [start, end] = [new Date(storedStart), new Date(storedStart + FIRST_RUN_WINDOW_MS)];
    if (storedEnd !== null) [start, end] = [new Date(storedEnd - FIRST_RUN_WINDOW_MS), new Date(storedEnd)];
    const rows = new Map([
      [startKey, JSON.stringify(start.toISOString())],
      [endKey, JSON.stringify(end.toISOString())],
    ]);
    if (storedStart === null && storedEnd === null)
      for (const [key, on] of Object.entries(FIRST_RUN_SWITCHES))
        rows.set(SETTING_PREFIX + key, JSON.stringify(on));
    await insertSettingRowsIfAbsent(trx, rows);
  });
  stateCache(ctx).invalidate();
}

/** Whether participants may see challenges and submit flags (the admin's site switch). */
export async function isSiteActive(ctx: AppContext): Promise<boolean> {
  return (await readEventState(ctx)).activated;
}

/** Whether now is inside the event window (drives the countdown and the create lock only). */
export async function isDuringEvent(ctx: AppContext): Promise<boolean> {
  const { startMs, endMs } = await readEventState(ctx);
  const now = ctx.clock.now().getTime();
  return now >= startMs && now < endMs;
}

/**
 * Whether Create Challenge and the import refuse a new challenge now: inside the window, unless
 * the organisers allowed creating during the event (a new challenge may still be scheduled or
 * left disabled until it is ready).
 */
export async function isCreateLocked(ctx: AppContext): Promise<boolean> {
  const { settings } = await readEventState(ctx);
  return !settings.allowCreateDuringEvent && (await isDuringEvent(ctx));
}

/** What play does now: 'open' until the end time, then the after-event setting. */
export async function afterEndMode(ctx: AppContext): Promise<'open' | 'closed' | 'practice'> {
  const state = await readEventState(ctx);
  return ctx.clock.now().getTime() >= state.endMs ? state.settings.afterEnd : 'open';
}

/** Whether the event's end time has passed (whatever the after-event setting: practice included). */
export async function hasEventEnded(ctx: AppContext): Promise<boolean> {
  return ctx.clock.now().getTime() >= (await readEventState(ctx)).endMs;
}

/** The freeze time set (in force or still to come), or null: the stored one, else FREEZE_AT. */
export async function getFreezeAt(ctx: AppContext): Promise<Date | null> {
  return (await readEventState(ctx)).freezeAt;
}

/** The freeze in force now (ISO 8601 UTC), or null: decided from the clock at each read. */
export async function activeFreeze(ctx: AppContext): Promise<string | null> {
  const at = await getFreezeAt(ctx);
  if (at === null || ctx.clock.now().getTime() < at.getTime()) return null;
  return at.toISOString();
}

/** The logo's URL, versioned by its content so browsers may keep it. */
export function logoUrlOf(state: EventState): string | null {
  return state.logo ? `${settingsApi.LOGO_PATH}?v=${state.logo.hash.slice(0, 16)}` : null;
}

/**
 * One setting as stored now, read from the database rather than the kept state: for jobs that run
 * rarely (the submission log's pruning), which then never fill or hold the state early.
 */
export async function readStoredSetting<K extends keyof EventSettings>(
  ctx: AppContext,
  key: K,
): Promise<EventSettings[K]> {
  const defaults = defaultSettings(ctx.config, ctx.clock.now());
  const raw = await readSettingRow(ctx.database.db, SETTING_PREFIX + key);
  return (raw === null ? defaults[key] : parseSetting(key, raw, defaults)) as EventSettings[K];
}

/**
 * The caches subscribe: whatever changes the event's state publishes 'site' first, so every
 * later handler (the stream's 'site' event) and every process reads the new state.
 */
export function subscribeEventState(ctx: AppContext): void {
  const publish = () => ctx.bus.publish('site');
  const priority = LISTENER_PRIORITY.caches;
  ctx.domainEvents.on('settings.saved', publish, { priority });
  ctx.domainEvents.on('site.switched', publish, { priority });
  ctx.domainEvents.on('freeze.changed', publish, { priority });
}

// The event's storage, for the modules that save it (settings, site, scoreboard): each write runs
// in the caller's transaction with its audit row, and the caller announces it after the commit
// ('settings.saved', 'site.switched', 'freeze.changed'), which drops the kept state everywhere.

/** Writes settings rows (a setting's JSON, its HTML, the logo) in the caller's transaction. */
export async function storeSettingRows(trx: Executor, rows: ReadonlyMap<string, string>): Promise<void> {
  await writeSettingRows(trx, rows);
}

/** The stored rows as the caller's transaction sees them (a check against what is stored now). */
export async function readStoredRows(trx: Executor): Promise<Map<string, string>> {
  return readSettingRows(trx);
}

/** One stored row, from the database (the logo's bytes, read only when the logo is fetched). */
export async function readStoredRow(ctx: AppContext, key: string): Promise<string | null> {
  return readSettingRow(ctx.database.db, key);
}

/** Sets the site switch in the caller's transaction; answers the position it had before. */
export async function storeSiteSwitch(trx: Executor, activated: boolean): Promise<boolean> {
  const before = (await readSettingRow(trx, ACTIVATED_KEY)) === 'true';
  await writeSettingRows(trx, new Map([[ACTIVATED_KEY, activated ? 'true' : 'false']]));
  return before;
}

/** Stores the freeze time (ISO 8601), or its lifting (null), in the caller's transaction. */
export async function storeFreezeAt(trx: Executor, at: string | null): Promise<void> {
  await writeSettingRows(trx, new Map([[FREEZE_KEY, at ?? '']]));
}
