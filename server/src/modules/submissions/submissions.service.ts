import {
  MESSAGES,
  WRONG_FLAG_LIMIT,
  WRONG_FLAG_WINDOW_MS,
  type UserCompletion,
  counted,
} from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/connect.js';
import type { UserRow } from '../../db/schema.js';
import { DomainError, notFound } from '../../lib/errors.js';
import {
  claimChallengeAttempt,
  openChallengeForSubmission,
  type ChallengeForPlay,
} from '../challenges/challenges.service.js';
import { logAttempt, logCorrectAttempt } from '../submission-log/submission-log.service.js';
import { afterEndMode, getFreezeAt } from '../event-state/event-state.service.js';
import { hasSolvedChallenge, recordSolvedPair } from './solved-pairs.js';
import { knownFirstBlood } from '../challenges/challenges.service.js';
import { confirmFirstBlood, reserveFirstBlood } from '../scoreboard/first-bloods.js';
import {
  hasSolved,
  insertPracticeSolve,
  listPracticeSolves,
  insertSolveForCurrentTeam,
} from './submissions.repo.js';

/** One counter per user and challenge: guessing one challenge never locks another. */
function wrongFlagKey(userId: number, challengeId: number): string {
  return `wrong-flag:${userId}:${challengeId}`;
}

function alreadySolved(): DomainError {
  return new DomainError('already_solved', MESSAGES.alreadySolved);
}

function rateLimited(seconds: number): DomainError {
  return new DomainError(
    'rate_limited',
    `Too many wrong flags. Try again in ${counted(seconds, 'second')}.`,
    seconds,
  );
}

/**
 * Checks a submitted flag (docs/product.md §12, §14). Wrong attempts are limited per user and challenge,
 * and the limit is checked before the comparison, so once it is reached even the right flag waits.
 * A wrong flag is an ordinary answer ('Incorrect Flag!'), not an HTTP error: the web keys on the
 * message. The submitted flag never reaches the server log; every attempt that reached a challenge
 * goes to the submission log (issue 18), a wrong one with its text cut to 200 characters.
 */
export async function submitFlag(
  ctx: AppContext,
  user: UserRow,
  input: { challengeId: number; flag: string; address: string },
): Promise<{ message: string }> {
  const challenge = await openChallengeForSubmission(ctx, user, input.challengeId);
  try {
    return await checkFlag(ctx, user, challenge, input);
  } catch (err) {
    // Refused attempts are logged with their outcome (the hot wrong path logs in checkFlag).
    if (err instanceof DomainError && LOGGED_REFUSALS.has(err.code))
      logAttempt(ctx, user, {
        challengeId: challenge.id,
        result: err.code as 'rate_limited' | 'already_solved' | 'no_attempts_left',
        address: input.address,
      });
    throw err;
  }
}

const LOGGED_REFUSALS: ReadonlySet<string> = new Set(['rate_limited', 'already_solved', 'no_attempts_left']);

async function checkFlag(
  ctx: AppContext,
  user: UserRow,
  challenge: ChallengeForPlay,
  input: { flag: string; address: string },
): Promise<{ message: string }> {
  // A solver's further guesses neither count nor compare (the solve's uniqueness rule would
  // refuse a second solve anyway).
  if (await hasSolvedChallenge(ctx, user.id, challenge.id)) throw alreadySolved();

  // After the end time the after-event setting decides, from the clock (docs/product.md §15): 'open'
  // plays on as before, 'closed' refuses, 'practice' records apart. Admins play as before.
  const afterEnd = await afterEndFor(ctx, user);
  if (afterEnd === 'closed') throw new DomainError('forbidden', MESSAGES.eventClosed);

  // NOTE: the attempt is counted before the comparison in one atomic step (not peek-then-hit),
  // so a burst of parallel guesses cannot all slip under the limit. A correct flag ends the game
  // for this challenge, so counting it too changes nothing for honest players.
  const key = wrongFlagKey(user.id, challenge.id);
  const attempt = await ctx.limiter.hit(key, WRONG_FLAG_LIMIT, WRONG_FLAG_WINDOW_MS);
  if (!attempt.allowed) throw rateLimited(attempt.retryAfterSeconds);

  // NOTE: with an attempt limit, the attempt is claimed in the database before the comparison
  // (a conditional upsert), so parallel guesses cannot go past the limit. Challenges without a
  // limit read and write nothing here.
  if (challenge.maxAttempts !== null && !(await claimChallengeAttempt(ctx, user.id, challenge))) {
    throw new DomainError('no_attempts_left', MESSAGES.noAttemptsLeft);
  }

  // Static flags compare in constant time; regexes were compiled when the gate's cache filled.
  if (!challenge.matches(input.flag, user)) {
    // NOTE: an array push; the row is written with others within a second (submission-log).
    logAttempt(ctx, user, {
      challengeId: challenge.id,
      result: 'wrong',
      submitted: input.flag,
      address: input.address,
    });
    return { message: MESSAGES.incorrectFlag };
  }

  if (afterEnd === 'practice') {
    const createdAt = ctx.clock.now().toISOString();
    try {
      if (
        !(await insertPracticeSolve(ctx.database.db, {
          userId: user.id,
          challengeId: challenge.id,
          createdAt,
        }))
      )
        throw alreadySolved();
    } catch (err) {
      if (isForeignKeyViolation(err)) throw notFound('Challenge not found');
      throw err;
    }
    // Nothing public changes: no publication, the board keeps the final standings.
    return { message: MESSAGES.correctPracticeFlag };
  }

  let firstBlood: { challenge: string; competitor: string } | null = null;
  let held = false;
  try {
    const createdAt = ctx.clock.now().toISOString();
    const solve = { userId: user.id, challengeId: challenge.id, createdAt };
    // NOTE: while no first blood is known, the solve also reserves the challenge's announcement
    // (first, so racing solves queue there); once one is, it is skipped. The solve, its log row
    // and the reservation commit together.
    const maybeFirst = user.is_admin !== 1 && !(await knownFirstBlood(ctx, challenge.id));
    // A first blood scored during a freeze is announced only when the public board includes it
    // (the lift announces it): the freeze hides who solved what, first bloods included.
    const freezeAt = maybeFirst ? await getFreezeAt(ctx) : null;
    held = freezeAt !== null && createdAt >= freezeAt.toISOString();
    const recorded = await ctx.database.transaction(async (trx) => {
      const reserved = maybeFirst && (await reserveFirstBlood(trx, challenge.id, createdAt));
      const solveId = await insertSolveForCurrentTeam(trx, solve);
      if (solveId !== null) {
        await logCorrectAttempt(trx, solveId, input.address);
        if (reserved) firstBlood = await confirmFirstBlood(trx, challenge.id, solveId, held);
        // The outbox writes its Discord message here: it commits with the solve, exactly once.
        if (firstBlood && !held) await ctx.domainEvents.emitInTransaction(trx, 'first-blood', firstBlood);
      }
      return solveId !== null;
    });
    if (!recorded) throw new DomainError('unauthenticated', MESSAGES.unauthorized);
  } catch (err) {
    // Concurrent correct submissions: the database keeps exactly one solve.
    if (isUniqueViolation(err)) throw alreadySolved();
    // The challenge was deleted between the gate and the write.
    if (isForeignKeyViolation(err)) throw notFound('Challenge not found');
    throw err;
  }
  recordSolvedPair(ctx, user.id, challenge.id);
  ctx.bus.publish('solves-added');
  void ctx.domainEvents.emit('flag.correct', { userId: user.id, challengeId: challenge.id });
  // Off the answer's path: the player's "Correct Flag!" never waits for the announcement.
  if (firstBlood && !held) void ctx.domainEvents.emit('first-blood', firstBlood);
  return { message: MESSAGES.correctFlag };
}

/** What a flag from this user does now: the after-event setting once the end has passed. */
async function afterEndFor(ctx: AppContext, user: UserRow): Promise<'open' | 'closed' | 'practice'> {
  if (user.is_admin === 1) return 'open';
  return afterEndMode(ctx);
}

/** The user's practice solves (after the end, in practice mode), for their profile. */
export async function getPracticeSolves(ctx: AppContext, userId: number): Promise<UserCompletion[]> {
  const rows = await listPracticeSolves(ctx.database.db, userId);
  return rows.map((r) => ({ id: String(r.challenge_id), name: r.name, time: r.created_at }));
}

/** Whether the user has solved the challenge (ratings are for solvers only). */
export async function hasUserSolved(ctx: AppContext, userId: number, challengeId: number): Promise<boolean> {
  return hasSolved(ctx.database.db, userId, challengeId);
}
