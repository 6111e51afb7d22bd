import { siteApi, type SiteInfo } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { CachedJson } from '../../lib/cached-json.js';
import { CachedValue } from '../../lib/invalidation.js';
import { SYSTEM_ACTOR, recordAudit, type AuditActor } from '../audit/audit.service.js';
import { getFreezeAt } from '../scoreboard/scoreboard.service.js';
import { publishLiveEvent } from '../events/events.service.js';
import { enqueueWebhook, kickWebhookSender, webhookText } from '../webhooks/webhooks.service.js';
import { siteHasAdmin } from '../users/users.service.js';
import { logoUrlOf, readSiteState, type SiteState } from '../settings/settings.service.js';
import { readSetting, writeSetting } from './site.repo.js';
import { getDivisionState } from '../divisions/divisions.service.js';

const ACTIVATED_KEY = 'site_activated';

/** Whether participants may see challenges and submit flags (the admin's site switch). */
export async function isSiteActive(ctx: AppContext): Promise<boolean> {
  return (await readSiteState(ctx)).activated;
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
    if (before !== activated) await enqueueWebhook(trx, ctx, 'site', webhookText.site(activated));
  });
  ctx.bus.publish('site');
  kickWebhookSender(ctx);
  await publishLiveEvent(ctx, 'site', { activated });
}

/** Whether now is inside the event window (drives the countdown and the create lock only). */
export async function isDuringEvent(ctx: AppContext): Promise<boolean> {
  const { startMs, endMs } = await readSiteState(ctx);
  const now = ctx.clock.now().getTime();
  return now >= startMs && now < endMs;
}

/** Whether the end time has passed: the after-event setting decides what play does then. */
export function hasEventEnded(ctx: AppContext, state: SiteState): boolean {
  return ctx.clock.now().getTime() >= state.endMs;
}

function presentSiteInfo(
  ctx: AppContext,
  state: SiteState,
  hasAdmin: boolean,
  freezeAt: string | null,
  divisions: string[],
): SiteInfo {
  const c = ctx.config;
  const s = state.settings;
  return {
    eventStart: s.eventStart,
    eventEnd: s.eventEnd,
    prizeText: s.prizeText,
    communityUrl: s.communityUrl,
    toolsUrl: s.toolsUrl,
    challengeHost: s.challengeHost,
    challengePort: s.challengePort,
    activated: state.activated,
    freezeAt,
    login: { discord: c.oauth.discord !== null, github: c.oauth.github !== null, local: c.localLogin },
    name: s.name,
    tagline: s.tagline,
    about_html: state.html.aboutMd,
    rules_html: state.html.rulesMd,
    faq_html: state.html.faqMd,
    logoUrl: logoUrlOf(state),
    accent: s.accent,
    afterEnd: s.afterEnd,
    divisions,
    firstAdminNeeded: !hasAdmin,
  };
}

const infoCaches = new WeakMap<AppContext, CachedValue<CachedJson>>();

/**
 * Public settings for the web (GET /api/info/site): the same for every caller, so serialised once
 * per change and revalidated by ETag; any settings write, the switch or a timed transition
 * publishes 'site' and drops it in every process.
 */
export async function getSiteInfo(ctx: AppContext): Promise<CachedJson> {
  // Applies a due timed transition first (it publishes 'site', which drops the kept answer).
  await readSiteState(ctx);
  let cache = infoCaches.get(ctx);
  if (!cache) {
    // 'users': whether any admin exists yet (a role given or taken away, a first login).
    cache = new CachedValue(ctx.bus, ['site', 'users'], async () => {
      const [state, hasAdmin, freezeAt, divisions] = await Promise.all([
        readSiteState(ctx),
        siteHasAdmin(ctx),
        getFreezeAt(ctx),
        getDivisionState(ctx),
      ]);
      return CachedJson.of(
        siteApi.SiteInfo,
        presentSiteInfo(
          ctx,
          state,
          hasAdmin,
          freezeAt?.toISOString() ?? null,
          divisions.list.map((d) => d.name),
        ),
      );
    });
    infoCaches.set(ctx, cache);
  }
  return cache.get();
}
