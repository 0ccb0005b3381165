/**
 * @module Passwords: argon2id hashes through `@node-rs/argon2` (its defaults,
 * m = 19 MiB, t = 2, p = 1, meet OWASP's Password Storage Cheat Sheet), and
 * the length rule of NIST SP 800-63B §3.1.1.2 (at least 8 characters for a
 * password the person chose; we ask for 10, and accept up to 256).
 */

let argon2Module: Promise<typeof import('@node-rs/argon2')> | undefined;

/**
 * `@node-rs/argon2`, loaded on the first hash or check rather than with this
 * module: a native addon a site's start does not need (a start on an
 * existing database hashes nothing).
 *
 * @throws Error when the addon cannot be loaded (every hash and check then fails with it).
 */
function argon2(): Promise<typeof import('@node-rs/argon2')> {
  argon2Module ??= import('@node-rs/argon2');
  return argon2Module;
}

/** Fewest characters (Unicode code points) a password may have. */
export const PASSWORD_MIN_LENGTH = 10;
/** Most characters a password may have (keeps hashing time bounded). */
export const PASSWORD_MAX_LENGTH = 256;

/**
 * What is wrong with a new password, as a sentence for the person, or null
 * when it is acceptable. Counts code points, so emoji and CJK count as one each.
 */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `The password must have at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (length > PASSWORD_MAX_LENGTH) return `The password must have at most ${PASSWORD_MAX_LENGTH} characters.`;
  return null;
}

/** The argon2id PHC string of `password` (a new random salt each time). */
export async function hashPassword(password: string): Promise<string> {
  const { hash } = await argon2();
  return hash(password);
}

/**
 * Whether `password` matches the stored PHC hash. A malformed hash answers
 * false (it matches nothing) rather than throwing.
 *
 * @throws Error when the argon2 addon cannot be loaded.
 */
export async function passwordMatches(storedHash: string, password: string): Promise<boolean> {
  const { verify } = await argon2();
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

let decoyHash: Promise<string> | null = null;

/**
 * Spends the time a real check takes, for a sign-in whose e-mail has no
 * account, so the answer's timing does not tell which addresses have one.
 */
export async function spendPasswordCheckTime(password: string): Promise<void> {
  decoyHash ??= hashPassword('a password no account has');
  await passwordMatches(await decoyHash, password);
}
