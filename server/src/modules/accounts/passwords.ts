import { hash, verify } from '@node-rs/argon2';

/**
 * Passwords hashed with Argon2id (OWASP's first choice: 19 MiB, 2 passes, 1 lane), by a prebuilt
 * native binding that runs off the event loop's thread.
 */
// NOTE: the binding's Algorithm is a const enum (gone under isolatedModules); its default is
// Argon2id, which the hash's `$argon2id$` prefix shows (a test checks it).
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummy: Promise<string> | null = null;

/**
 * Checks a password against a stored hash; with no hash (an unknown address) it checks against a
 * dummy one, so a wrong address costs the same time as a wrong password.
 */
export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  dummy ??= hashPassword('a password nobody has: only the time of the check matters');
  const against = stored ?? (await dummy);
  try {
    const ok = await verify(against, password);
    return ok && stored !== undefined;
  } catch {
    return false;
  }
}
