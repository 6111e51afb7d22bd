import { z } from 'zod';
import { AckResponse, endpoint } from './common.js';
import { ROUTES } from './routes.js';
import { DIVISION_LIMITS } from '../rules/constants.js';
import { nameKey } from '../rules/usernames.js';

/**
 * Divisions (issue 19): optional brackets such as "First-years" and "Open". With none defined the
 * site behaves exactly as without the feature. A division may be limited to e-mail domains: only
 * users whose e-mail (as their OAuth provider last gave it) ends in one of them may pick it.
 */

/** A domain as written in the list: lower-cased, without '@', labels of letters, digits and '-'. */
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export const EmailDomain = z
  .string('must be text')
  .trim()
  .transform((v) => v.toLowerCase().replace(/^@/, ''))
  .pipe(z.string().regex(DOMAIN, 'must be a domain such as example.org'));

export const DivisionName = z
  .string('must be text')
  .trim()
  .min(1, 'is required')
  .max(DIVISION_LIMITS.nameMax, `must be at most ${DIVISION_LIMITS.nameMax} characters`);

export const Division = z.object({
  name: DivisionName,
  emailDomains: z
    .array(EmailDomain, 'must be a list of domains')
    .max(DIVISION_LIMITS.maxDomains, `must hold at most ${DIVISION_LIMITS.maxDomains} domains`)
    .default([]),
});
export type Division = z.output<typeof Division>;
export type DivisionInput = z.input<typeof Division>;

/** The whole set, in the order the site lists it; names are unique ignoring case. */
export const DivisionList = z
  .array(Division, 'must be a list of divisions')
  .max(DIVISION_LIMITS.maxDivisions, `must hold at most ${DIVISION_LIMITS.maxDivisions} divisions`)
  .superRefine((list, issues) => {
    const seen = new Set<string>();
    list.forEach((d, i) => {
      const key = nameKey(d.name);
      if (seen.has(key))
        issues.addIssue({ code: 'custom', path: [i, 'name'], message: 'is used by another division' });
      seen.add(key);
    });
  });

const DivisionsAnswer = z.object({ divisions: z.array(Division) });

/** The admin's editor: every division with its domains. */
export const getDivisions = endpoint({
  ...ROUTES.settings.getDivisions,
  body: undefined,
  response: DivisionsAnswer,
});

/**
 * Replaces the set (admin only). A division whose name (ignoring case) is kept keeps its members,
 * even when its domains change; the members of a removed division are left with none.
 */
export const setDivisions = endpoint({
  ...ROUTES.settings.setDivisions,
  body: z.object({ divisions: DivisionList }).strict(),
  response: AckResponse.extend(DivisionsAnswer.shape),
});

/** The caller picks a division by name (null: none), until their first solve. */
export const pickDivision = endpoint({
  ...ROUTES.users.pickDivision,
  body: z.object({ division: z.string('must be a division name or null').max(200).nullable() }).strict(),
  response: AckResponse.extend({ division: z.string().nullable() }),
});

/** The filter a board-derived answer takes (?division=NAME); absent: every competitor. */
export const DivisionFilter = z.object({
  division: z.string('must be text').max(200, 'must be at most 200 characters').optional(),
});

export const DIVISION_ADMIN_ENDPOINTS = [getDivisions, setDivisions] as const;
