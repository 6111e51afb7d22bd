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

/** E-mail and password accounts: the answers, the same whether or not an address is known. */
export const EMAIL_MESSAGES = {
  registered: 'Check your e-mail to confirm your account.',
  wrongLogin: 'Wrong e-mail or password.',
  unconfirmed: 'Confirm your e-mail first: we sent you a link.',
  forgot: 'If an account uses that address, we sent it a link.',
  reset: 'Your password is changed: sign in with it.',
  badToken: 'This link is not valid any more: ask for a new one.',
  usernameTaken: 'That username is taken.',
  blocked: 'This e-mail address is blocked on this site.',
  notEnabled: 'E-mail sign-in is not enabled on this site.',
} as const;

export const PASSWORD_RULES = { minLength: 10, maxLength: 200 } as const;

/** What is wrong with a new password (the rule it breaks), or null. */
export function passwordProblem(password: string, username: string, email: string): string | null {
  if ([...password].length < PASSWORD_RULES.minLength)
    return `Your password must be at least ${PASSWORD_RULES.minLength} characters long.`;
  const lower = password.toLowerCase();
  if (username.trim().length >= 3 && lower.includes(username.trim().toLowerCase()))
    return 'Your password must not contain your username.';
  const address = email.trim().toLowerCase();
  const local = address.slice(0, address.lastIndexOf('@'));
  if (address && (lower.includes(address) || (local.length >= 3 && lower.includes(local))))
    return 'Your password must not contain your e-mail address.';
  return null;
}

/** How long the e-mailed links work. */
export const EMAIL_LINK_TTL_MS = { confirm: 24 * 60 * 60 * 1000, reset: 60 * 60 * 1000 } as const;

/** The ways into an account (GET /api/user/identities). */
export const IDENTITY_KINDS = ['discord', 'github', 'oidc', 'email'] as const;
export type IdentityKind = (typeof IDENTITY_KINDS)[number];
export interface Identity {
  provider: IdentityKind;
  name: string;
  linkedAt: string;
}

export const IDENTITY_MESSAGES = {
  linked: 'Linked: you can now sign in this way too.',
  unlinked: 'Unlinked.',
  last: 'You cannot unlink your only way to sign in.',
  elsewhere: 'This sign-in already belongs to another account.',
  onePerProvider: 'Your account already has a sign-in of this kind: unlink it first.',
  signInFirst: 'Sign in to your account first, then link from your profile.',
  emailAdded: 'Check your e-mail to confirm the address; then you can sign in with it.',
} as const;
