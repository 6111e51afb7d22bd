import type { Executor } from '../../db/schema.js';
import { confirmFirstBloodNotice, reserveFirstBloodNotice } from './first-bloods.repo.js';

/**
 * A first blood's announcement, made once per challenge, in the transaction of the solve that
 * may be it (submissions). The freeze holds it back while the public board hides that solve; the
 * freeze's lifting or moving releases it (setFreezeAt). Both sit here, beside the board.
 */

/**
 * Before the solve is written: whether this transaction holds the challenge's announcement.
 * NOTE: racing solves queue on the reservation, so the holder also gets the lowest solve id.
 */
export function reserveFirstBlood(trx: Executor, challengeId: number, at: string): Promise<boolean> {
  return reserveFirstBloodNotice(trx, challengeId, at);
}

/**
 * After the solve is written, with the reservation: the names to announce when the solve counts in
 * public (null otherwise, and the reservation is given up); `held` keeps it back for the freeze.
 */
export function confirmFirstBlood(
  trx: Executor,
  challengeId: number,
  solveId: number,
  held: boolean,
): Promise<{ challenge: string; competitor: string } | null> {
  return confirmFirstBloodNotice(trx, challengeId, solveId, held);
}
