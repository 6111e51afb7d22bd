import { orderLoginMethods, siteApi, type SiteInfo } from '@ctf/contract';
import { configuredLoginMethods } from '../../config.js';
import type { AppContext } from '../../context.js';
import { CachedJson } from '../../lib/cached-json.js';
import { CachedValue } from '../../lib/invalidation.js';
import { SYSTEM_ACTOR, recordAudit, type AuditActor } from '../audit/audit.service.js';
import { siteHasAdmin } from '../users/users.service.js';
import { getDivisionState } from '../divisions/divisions.service.js';
import {
  logoUrlOf,
  readEventState,
  storeSiteSwitch,
  type EventState,
} from '../event-state/event-state.service.js';

/**
 * Sets the admin's site switch, with its audit row; announced after the commit (the outbox
 * writes its Discord message in the transaction when the switch moved).
 */
export async function setSiteActive(
  ctx: AppContext,
  activated: boolean,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<void> {
  const at = ctx.clock.now();
  const switched = { activated, changed: false };
  await ctx.database.transaction(async (trx) => {
    const before = await storeSiteSwitch(trx, activated);
    switched.changed = before !== activated;
    await recordAudit(trx, {
      actor,
      action: 'site.switch',
      target: 'site',
      details: { before: { activated: before }, after: { activated } },
      at,
    });
    await ctx.domainEvents.emitInTransaction(trx, 'site.switched', switched);
  });
  await ctx.domainEvents.emit('site.switched', switched);
}

function presentSiteInfo(
  ctx: AppContext,
  state: EventState,
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
    loginMethods: orderLoginMethods(configuredLoginMethods(c), s.loginMethods),
    oidcLabel: c.oidc?.label ?? null,
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
    writeups: s.writeups,
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
  await readEventState(ctx);
  let cache = infoCaches.get(ctx);
  if (!cache) {
    // 'users': whether any admin exists yet (a role given or taken away, a first login).
    cache = new CachedValue(ctx.bus, ['site', 'users'], async () => {
      const [state, hasAdmin, divisions] = await Promise.all([
        readEventState(ctx),
        siteHasAdmin(ctx),
        getDivisionState(ctx),
      ]);
      return CachedJson.of(
        siteApi.SiteInfo,
        presentSiteInfo(
          ctx,
          state,
          hasAdmin,
          state.freezeAt?.toISOString() ?? null,
          divisions.list.map((d) => d.name),
        ),
      );
    });
    infoCaches.set(ctx, cache);
  }
  return cache.get();
}
