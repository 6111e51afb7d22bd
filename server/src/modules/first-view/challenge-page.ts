import { challengesApi, IdInput, instancesApi, siteApi, writeupsOpenAt } from '@ctf/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { CachedJson } from '../../lib/cached-json.js';
import { DomainError } from '../../lib/errors.js';
import { getChallengeDetail } from '../challenges/challenges.service.js';
import { getInstance } from '../instances/instances.service.js';

/** The seed's part of one page and what it was drawn from (their ETags), to key the kept page. */
export interface SeedPart {
  parts: string[];
  versions: string[];
}

/**
 * The challenge page's own answers for a signed-in caller, and the address it is rendered at: what `POST /api/ctf/challenge` answers
 * them for the `id` of the page's address (the route's own service, serialised by the route's
 * response schema, so the page and the API cannot disagree) and, for a challenge with a
 * container, what `GET /api/ctf/instance` answers, so the instance panel is drawn at once and
 * nothing below it moves. Null, and the browser draws the page as before, whenever the API would
 * refuse it (an id it does not take, an unknown or unreleased challenge, the site closed ...), for
 * the locked view, and while a panel drawn from the reader's clock may show (the writeups open,
 * the event over: the server cannot tell what that clock says).
 */
export async function challengePageAnswers(
  ctx: AppContext,
  caller: UserRow,
  search: URLSearchParams,
  siteInfoJson: string,
): Promise<(SeedPart & { url: string }) | null> {
  // The page reads its id as the browser's URLSearchParams does (ChallengePage).
  const idText = search.get('id')?.trim() ?? '';
  const id = IdInput.safeParse(idText);
  if (!id.success) return null;
  if (clockPanelsMayShow(ctx, siteInfoJson)) return null;
  const detail = await answerOrRefusal(
    challengesApi.challengeDetail.response,
    getChallengeDetail(ctx, caller, id.data),
  );
  if (!detail.ok || detail.answer.locked) return null;
  const seed = [`"id":${JSON.stringify(idText)}`, `"detail":${detail.json.json}`];
  const versions = [detail.json.etag()];
  if (detail.answer.instance) {
    const instance = await answerOrRefusal(
      instancesApi.getInstance.response,
      getInstance(ctx, caller, id.data),
    );
    // None yet (404) and a failed start (503) are what the panel shows; anything else is an error
    // the browser-drawn panel reports as it always has.
    if (!instance.ok && instance.status !== 404 && instance.status !== 503) return null;
    const result = instance.ok
      ? `{"ok":true,"status":200,"data":${instance.json.json}}`
      : JSON.stringify({
          ok: false,
          status: instance.status,
          message: instance.message,
          code: instance.code,
        });
    seed.push(`"instance":${result}`);
    versions.push(result);
  }
  return {
    parts: [`"challenge":{${seed.join(',')}}`],
    versions,
    url: `/challenge?id=${encodeURIComponent(idText)}`,
  };
}

/**
 * Whether, by the server's clock, the writeup collection is open or the event is over: the page
 * then draws "Your writeup" or the published writeups, which the browser decides by its own clock
 * once the page is live. Drawn without them, such a page would move when they came.
 */
function clockPanelsMayShow(ctx: AppContext, siteInfoJson: string): boolean {
  const site = JSON.parse(siteInfoJson) as z.output<typeof siteApi.SiteInfo>;
  const now = ctx.clock.now();
  return writeupsOpenAt(site.writeups, now) || Date.parse(site.eventEnd) <= now.getTime();
}

type Answer<S extends z.ZodType> =
  | { ok: true; answer: z.output<S>; json: CachedJson }
  | { ok: false; status: number; message: string; code: string };

/**
 * A service's answer as its route sends it (its response schema drops what the contract does not
 * declare), or the refusal the route would answer. Any other failure is thrown.
 */
async function answerOrRefusal<S extends z.ZodType>(
  schema: S,
  answer: Promise<z.input<S>>,
): Promise<Answer<S>> {
  try {
    const sent = schema.parse(await answer) as z.output<S>;
    return { ok: true, answer: sent, json: new CachedJson(JSON.stringify(sent)) };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { ok: false, status: error.statusCode, message: error.message, code: error.code };
  }
}
