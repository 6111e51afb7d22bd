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
  code: 'Wrong registration code.',
  /** Asked of a new account when the site has a registration code and none was given. */
  codeNeeded: 'Enter the registration code to create your account.',
} as const;

/** Who may make a new account: closed, limited to verified e-mail domains, behind a code. */
export interface RegistrationRules {
  open: boolean;
  allowedEmailDomains: string[];
  code: string | null;
}

export const DEFAULT_REGISTRATION: RegistrationRules = { open: true, allowedEmailDomains: [], code: null };
