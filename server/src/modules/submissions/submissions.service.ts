import { MESSAGES, WRONG_FLAG_LIMIT, WRONG_FLAG_WINDOW_MS, type UserCompletion } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/connect.js';
import type { UserRow } from '../../db/schema.js';
import { DomainError, notFound } from '../../lib/errors.js';
import { claimChallengeAttempt, openChallengeForSubmission } from '../challenges/challenges.service.js';
import { readSiteState } from '../settings/settings.service.js';
import { hasSolvedChallenge, recordSolvedPair } from './solved-pairs.js';
import {
  hasSolved,
  insertPracticeSolve,
  insertSolveForCurrentTeam,
  listPracticeSolves,
} from './submissions.repo.js';

/** One counter per user and challenge: guessing one challenge never locks another. */
function wrongFlagKey(userId: number, challengeId: number): string {
  return `wrong-flag:${userId}:${challengeId}`;
}

function alreadySolved(): DomainError {
  return new DomainError('already_solved', MESSAGES.alreadySolved);
}

function rateLimited(seconds: number): DomainError {
  return new DomainError('rate_limited', `Too many wrong flags. Try again in ${seconds} seconds.`, seconds);
}

/**
 * Checks a submitted flag (DESIGN.md §4, §6). Wrong attempts are limited per user and challenge,
 * and the limit is checked before the comparison, so once it is reached even the right flag waits.
 * A wrong flag is an ordinary answer ('Incorrect Flag!'), not an HTTP error: the web keys on the
 * message. The submitted flag is never logged or stored.
 */
export async function submitFlag(
  ctx: AppContext,
  user: UserRow,
  input: { challengeId: number; flag: string },
): Promise<{ message: string }> {
  const challenge = await openChallengeForSubmission(ctx, user, input.challengeId);
  // A solver's further guesses neither count nor compare (the solve's uniqueness rule would
  // refuse a second solve anyway).
  if (await hasSolvedChallenge(ctx, user.id, challenge.id)) throw alreadySolved();

  // After the end time the after-event setting decides, from the clock (DESIGN.md §8): 'open'
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
  if (!challenge.matches(input.flag)) {
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

  try {
    const recorded = await insertSolveForCurrentTeam(ctx.database.db, {
      userId: user.id,
      challengeId: challenge.id,
      createdAt: ctx.clock.now().toISOString(),
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
  return { message: MESSAGES.correctFlag };
}

/** What a flag from this user does now: the after-event setting once the end has passed. */
async function afterEndFor(ctx: AppContext, user: UserRow): Promise<'open' | 'closed' | 'practice'> {
  if (user.is_admin === 1) return 'open';
  const state = await readSiteState(ctx);
  return ctx.clock.now().getTime() >= state.endMs ? state.settings.afterEnd : 'open';
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
