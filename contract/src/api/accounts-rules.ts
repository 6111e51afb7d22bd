/**
 * The accounts' pure rules (no zod), shared by the server and the web's entry of the contract: who
 * may make a new account, and the texts of the answers.
 */

export const REGISTRATION_LIMITS = { maxDomains: 50, codeMax: 100 } as const;

/** The 403 answers of a refused sign-up, each naming why. */
export const REGISTRATION_MESSAGES = {
  closed: 'Registration is closed.',
  domains: (domains: readonly string[]) =>
    `Sign-ups are limited to e-mail addresses at ${domains.join(', ')}; sign in with a provider that confirms such an address.`,
  /** Also the answer to a new account's sign-in without a pass: the login page then asks for the code. */
  code: 'Wrong registration code.',
  /** POST /api/auth/registration-code with the right code. */
  codeAccepted: 'Code accepted. Sign in again to create your account.',
  /**
   * A new sign-in whose verified address is an existing account's: never merged silently (409).
   */
  emailInUse:
    'An account already uses this e-mail address. Sign in the way you did before, then link this way in from your profile.',
} as const;

/** Who may make a new account: closed, limited to verified e-mail domains, behind a code. */
export interface RegistrationRules {
  open: boolean;
  allowedEmailDomains: string[];
  code: string | null;
}

export const DEFAULT_REGISTRATION: RegistrationRules = { open: true, allowedEmailDomains: [], code: null };
