import { z } from 'zod';
import { AckResponse, IdInput, MessageResponse, endpoint } from './common.js';
import { ROUTES } from './routes.js';
import { EmailDomain } from './divisions.js';
import { LOGIN_METHODS } from './oauth.js';
import { IDENTITY_KINDS, PASSWORD_RULES, REGISTRATION_LIMITS } from './accounts-rules.js';
import { LocalLoginBody } from './auth.js';

/**
 * Who may make a new account, and in which order the login page offers the ways in: settings an
 * admin edits. Existing accounts always sign in; these rules apply when a sign-in would create one.
 */

export * from './accounts-rules.js';

export const RegistrationSettings = z
  .object({
    /** Closed: no new account is made (existing ones still sign in). */
    open: z.boolean({ error: 'registration.open must be true or false' }),
    /** Empty: any address (or none); else a new account needs a verified address at one of them. */
    allowedEmailDomains: z
      .array(EmailDomain, 'must be a list of domains')
      .max(REGISTRATION_LIMITS.maxDomains, `must hold at most ${REGISTRATION_LIMITS.maxDomains} domains`)
      .transform((list) => [...new Set(list)]),
    /** Asked once before a new account is made; null: none. */
    code: z
      .string()
      .trim()
      .max(REGISTRATION_LIMITS.codeMax, `must be at most ${REGISTRATION_LIMITS.codeMax} characters`)
      .nullable()
      .transform((v) => (v === null || v === '' ? null : v)),
  })
  .strict();
export type RegistrationSettings = z.output<typeof RegistrationSettings>;

/** The login page's order of the ways in; each at most once. */
export const LoginMethodOrder = z
  .array(z.enum(LOGIN_METHODS), 'must be a list of ways in')
  .max(LOGIN_METHODS.length)
  .refine((list) => new Set(list).size === list.length, 'must name each way in once');

/** The registration code, typed once on the login page before a new account is made. */
export const registrationCode = endpoint({
  ...ROUTES.accounts.registrationCode,
  body: z.object({ code: z.string().max(REGISTRATION_LIMITS.codeMax, 'is too long') }),
  response: MessageResponse,
});

const Email = z
  .string()
  .trim()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email('must be an e-mail address'))
  .transform((v) => v.toLowerCase());
const Password = z
  .string()
  .max(PASSWORD_RULES.maxLength, `must be at most ${PASSWORD_RULES.maxLength} characters`);

export const RegisterBody = z.object({
  username: LocalLoginBody.shape.username,
  email: Email,
  password: Password,
});
export const register = endpoint({
  ...ROUTES.accounts.register,
  body: RegisterBody,
  response: MessageResponse,
});

export const emailLogin = endpoint({
  ...ROUTES.accounts.emailLogin,
  body: z.object({
    email: z
      .string()
      .trim()
      .max(254)
      .transform((v) => v.toLowerCase()),
    password: Password,
  }),
  response: MessageResponse,
});

export const forgotPassword = endpoint({
  ...ROUTES.accounts.forgotPassword,
  body: z.object({
    email: z
      .string()
      .trim()
      .max(254)
      .transform((v) => v.toLowerCase()),
  }),
  response: MessageResponse,
});

export const resetPassword = endpoint({
  ...ROUTES.accounts.resetPassword,
  body: z.object({ token: z.string().max(100), password: Password }),
  response: MessageResponse,
});

export const Identity = z.object({
  provider: z.enum(IDENTITY_KINDS),
  name: z.string(),
  linkedAt: z.string(),
});

export const identities = endpoint({
  ...ROUTES.accounts.identities,
  body: undefined,
  response: z.array(Identity),
});

export const addEmailIdentity = endpoint({
  ...ROUTES.accounts.addEmailIdentity,
  body: z.object({ email: Email, password: Password }),
  response: MessageResponse,
});

export const unlinkIdentity = endpoint({
  ...ROUTES.accounts.unlinkIdentity,
  body: z.object({ provider: z.enum(IDENTITY_KINDS) }),
  response: MessageResponse,
});

/** A user's ways in as the Users tab shows them; emailVerified null: no e-mail sign-in. */
export const AdminSignIns = z.object({
  user_id: z.string(),
  ways: z.array(z.enum(IDENTITY_KINDS)),
  emailVerified: z.boolean().nullable(),
});
export type AdminSignIns = z.infer<typeof AdminSignIns>;

export const adminSignIns = endpoint({
  ...ROUTES.accounts.adminSignIns,
  body: undefined,
  response: z.array(AdminSignIns),
});

export const resendConfirmation = endpoint({
  ...ROUTES.accounts.resendConfirmation,
  // The shared id: bounded, so an id past the database's integers is a 400, never a 500.
  body: z.object({ user_id: IdInput }),
  response: AckResponse,
});

export const blockedEmails = endpoint({
  ...ROUTES.accounts.blockedEmails,
  body: undefined,
  response: z.array(z.object({ email: z.string(), blockedAt: z.string() })),
});

export const blockEmail = endpoint({
  ...ROUTES.accounts.blockEmail,
  body: z.object({ email: Email, blocked: z.boolean() }),
  response: AckResponse,
});

/** The accounts' staff endpoints, for the authorization matrix test. */
export const ACCOUNT_ADMIN_ENDPOINTS = [adminSignIns, resendConfirmation, blockedEmails, blockEmail] as const;
