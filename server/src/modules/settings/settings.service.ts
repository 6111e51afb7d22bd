import {
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
import { defaultSettings } from '../event-state/event-state.defaults.js';
import {
  logoUrlOf,
  readEventState,
  readStoredRow,
  readStoredRows,
  storeSettingRows,
  type EventState,
} from '../event-state/event-state.service.js';
import {
  HTML_PREFIX,
  LOGO_DATA_KEY,
  LOGO_META_KEY,
  MARKDOWN_KEYS,
  SETTING_PREFIX,
} from '../event-state/setting-keys.js';

/**
 * The admin's settings: saving them (checked, rendered, audited) and the logo. What they decide
 * is read from the event's state (modules/event-state), which a save drops in every process.
 */

/** The settings as the admin panel shows them. */
export async function getAdminSettings(ctx: AppContext): Promise<AdminSettings> {
  return presentAdminSettings(await readEventState(ctx));
}

function presentAdminSettings(state: EventState): AdminSettings {
  return { ...state.settings, logoUrl: logoUrlOf(state) };
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
    const before = (await readEventState(ctx)).settings;
    await ctx.database.transaction(async (trx) => {
      // Checked inside the transaction against the stored values, so two partial saves that race
      // (one moving the start, one the end) cannot together leave the end before the start.
      const stored = await readStoredRows(trx);
      const current = (key: 'eventStart' | 'eventEnd') => {
        const raw = stored.get(SETTING_PREFIX + key);
        return changes[key] ?? (raw ? (JSON.parse(raw) as string) : defaultSettings(ctx.config, ctx.clock.now())[key]);
      };
      if (Date.parse(current('eventEnd')) <= Date.parse(current('eventStart')))
        throw badInput('Invalid eventEnd: the end must be after the start');
      await storeSettingRows(trx, rows);
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
    await ctx.domainEvents.emit('settings.saved', {});
  }
  return presentAdminSettings(await readEventState(ctx));
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
    await storeSettingRows(
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
  await ctx.domainEvents.emit('settings.saved', {});
  return logoUrlOf(await readEventState(ctx))!;
}

type Logo = { type: LogoType; hash: string; bytes: Buffer };
const logoCaches = new WeakMap<AppContext, CachedValue<Logo | null>>();

/** The logo's bytes (read only when someone fetches it; kept until the next settings write). */
export async function readLogo(ctx: AppContext): Promise<Logo | null> {
  let cache = logoCaches.get(ctx);
  if (!cache) {
    cache = new CachedValue<Logo | null>(ctx.bus, ['site'], async () => {
      const raw = await readStoredRow(ctx, LOGO_DATA_KEY);
      if (!raw) return null;
      const logo = JSON.parse(raw) as { type: LogoType; hash: string; data: string };
      return { type: logo.type, hash: logo.hash, bytes: Buffer.from(logo.data, 'base64') };
    });
    logoCaches.set(ctx, cache);
  }
  return cache.get();
}
