import { z } from 'zod';
import { IdString, Timestamp, endpoint } from './common.js';
import { ROUTES } from './routes.js';
import { ROLES } from './staff-roles.js';
import { Award } from './awards.js';

export const UserCompletion = z.object({ id: IdString, name: z.string(), time: Timestamp });
export type UserCompletion = z.infer<typeof UserCompletion>;

/** docs/product.md §3 User. `team` is the team's name or the string 'None'. */
export const User = z.object({
  _id: IdString,
  username: z.string(),
  avatarUrl: z.string(),
  email: z.string(),
  team: z.string(),
  team_id: IdString.nullable(),
  is_leader: z.boolean(),
  is_admin: z.boolean(),
  /** The staff role (issue 31): player, monitor, author or admin; is_admin is role === 'admin'. */
  role: z.enum(ROLES),
  completions: z.array(UserCompletion),
  user_rates: z.array(IdString),
  /** Awards given to this user (issue 31), oldest first. */
  awards: z.array(Award),
  /** The user's division (issue 19), null when none; present only while the site has divisions. */
  division: z.string().nullable().optional(),
});
export type User = z.infer<typeof User>;

export const userInfo = endpoint({
  ...ROUTES.users.userInfo,
  body: undefined,
  response: User.nullable(),
});

/** The caller's practice solves (after the end, in practice mode): never scored, shown on the profile. */
export const practiceSolves = endpoint({
  ...ROUTES.users.practiceSolves,
  body: undefined,
  response: z.array(UserCompletion),
});
