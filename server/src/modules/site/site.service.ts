import { CHALLENGE_HELP_PORT, PRIZE_POOL_TEXT, type SiteInfo } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { CachedValue } from '../../lib/invalidation.js';
import { publishLiveEvent } from '../events/events.service.js';
import { SYSTEM_ACTOR, recordAudit, type AuditActor } from '../audit/audit.service.js';
import { getFreezeAt } from '../scoreboard/scoreboard.service.js';
import { readSetting, writeSetting } from './site.repo.js';

const ACTIVATED_KEY = 'site_activated';

const activationCaches = new WeakMap<AppContext, CachedValue<boolean>>();

function activationCache(ctx: AppContext): CachedValue<boolean> {
  let cache = activationCaches.get(ctx);
  if (!cache) {
    // A new database starts inactive so nothing leaks while a club prepares (DESIGN.md §4).
    cache = new CachedValue(
      ctx.bus,
      ['site'],
      async () => (await readSetting(ctx.database.db, ACTIVATED_KEY)) === 'true',
    );
    activationCaches.set(ctx, cache);
  }
  return cache;
}

/** Whether participants may see challenges and submit flags (the admin's site switch). */
export async function isSiteActive(ctx: AppContext): Promise<boolean> {
  return activationCache(ctx).get();
}

export async function setSiteActive(
  ctx: AppContext,
  activated: boolean,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<void> {
  const at = ctx.clock.now();
  await ctx.database.transaction(async (trx) => {
    const before = (await readSetting(trx, ACTIVATED_KEY)) === 'true';
    await writeSetting(trx, ACTIVATED_KEY, activated ? 'true' : 'false');
    await recordAudit(trx, {
      actor,
      action: 'site.switch',
      target: 'site',
      details: { before: { activated: before }, after: { activated } },
      at,
    });
  });
  ctx.bus.publish('site');
  await publishLiveEvent(ctx, 'site', { activated });
}

/** Whether now is inside the event window (drives the countdown and the create lock only). */
export function isDuringEvent(ctx: AppContext): boolean {
  const now = ctx.clock.now().getTime();
  return now >= ctx.config.eventStart.getTime() && now < ctx.config.eventEnd.getTime();
}

/** Public settings for the web: event window, links, login methods. */
export async function getSiteInfo(ctx: AppContext): Promise<SiteInfo> {
  const c = ctx.config;
  return {
    eventStart: c.eventStart.toISOString(),
    eventEnd: c.eventEnd.toISOString(),
    prizeText: PRIZE_POOL_TEXT,
    communityUrl: c.communityUrl,
    toolsUrl: c.toolsUrl,
    challengeHost: c.challengeHost,
    challengePort: CHALLENGE_HELP_PORT,
    activated: await isSiteActive(ctx),
    freezeAt: (await getFreezeAt(ctx))?.toISOString() ?? null,
    login: { discord: c.oauth.discord !== null, github: c.oauth.github !== null, local: c.localLogin },
  };
}
