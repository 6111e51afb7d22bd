import { z } from 'zod';
import { AckResponse, IdInput, IdString, Timestamp, endpoint } from './common.js';
import { ROUTES } from './routes.js';
import { AWARD_POINTS_MAX, AWARD_REASON_MAX_LENGTH } from '../rules/constants.js';

/**
 * Awards (issue 31): points an admin gives a user or a team (a bonus, or a penalty when negative),
 * with a reason. They count wherever a solve counts (docs/scoring.md, "Awards").
 */

/** An award as the player sees it on their user or team info. */
export const Award = z.object({ points: z.number(), reason: z.string(), time: Timestamp });
export type Award = z.infer<typeof Award>;

export const AwardPoints = z
  .number({ error: 'Points must be a whole number' })
  .int('Points must be a whole number')
  .refine((n) => n !== 0, 'Points must not be 0')
  .refine(
    (n) => Math.abs(n) <= AWARD_POINTS_MAX,
    `Points must be between -${AWARD_POINTS_MAX.toLocaleString('en-US')} and ${AWARD_POINTS_MAX.toLocaleString('en-US')}`,
  );

export const AwardReason = z
  .string({ error: 'A reason is required' })
  .trim()
  .min(1, 'A reason is required')
  .max(AWARD_REASON_MAX_LENGTH, `The reason must be at most ${AWARD_REASON_MAX_LENGTH} characters`);

/** Exactly one of user_id and team_id names who gets the points. */
export const GiveAwardBody = z
  .object({
    user_id: IdInput.optional(),
    team_id: IdInput.optional(),
    points: AwardPoints,
    reason: AwardReason,
  })
  .strict()
  .refine((b) => (b.user_id === undefined) !== (b.team_id === undefined), {
    message: 'Give the award to a user (user_id) or a team (team_id), not both',
  });
export type GiveAwardBody = z.infer<typeof GiveAwardBody>;

/** An award in the admin's list: who got it (the user, the team, or both: a user on a team). */
export const AdminAward = z.object({
  _id: IdString,
  user_id: IdString.nullable(),
  user: z.string().nullable(),
  team_id: IdString.nullable(),
  team: z.string().nullable(),
  points: z.number(),
  reason: z.string(),
  time: Timestamp,
});
export type AdminAward = z.infer<typeof AdminAward>;

export const giveAward = endpoint({
  ...ROUTES.awards.giveAward,
  body: GiveAwardBody,
  response: z.object({ _id: IdString }),
});
export const listAwards = endpoint({
  ...ROUTES.awards.listAwards,
  body: undefined,
  response: z.array(AdminAward),
});
export const deleteAward = endpoint({
  ...ROUTES.awards.deleteAward,
  body: z.object({ award_id: IdInput }),
  response: AckResponse,
});

export const AWARD_ADMIN_ENDPOINTS = [giveAward, listAwards, deleteAward] as const;
