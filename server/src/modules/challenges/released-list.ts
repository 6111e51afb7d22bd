import type { PublicChallenge } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { ScoreBoard } from '../scoreboard/score-board.js';
import { withCurrentValues } from './challenge-views.js';
import { listCache } from './public-list.js';

/**
 * Every challenge a participant can see now, whole, for the event's static archive (issue 32):
 * active and released (never a hidden, disabled or scheduled one), with its description and files
 * (also one behind prerequisites: the archive is read after the event), and its value, solve count
 * and first blood as `board` has them (the public board, as of a freeze while one is in force).
 */
export async function listReleasedChallenges(ctx: AppContext, board: ScoreBoard): Promise<PublicChallenge[]> {
  const base = await listCache(ctx).get();
  const now = ctx.clock.now().getTime();
  const released = base.all.filter((c) => {
    const releaseAt = base.schedule.get(Number(c._id))?.releaseAt ?? null;
    return c.is_active && (releaseAt === null || releaseAt <= now);
  });
  return withCurrentValues(released, board, base.firstBloodIds);
}
