/**
 * @module Random secrets (session cookies, CSRF tokens, access tokens) and
 * how they are kept: only a SHA-256 is stored, comparisons take constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new secret: 32 random bytes as 43 base64url characters. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether `value` looks like {@link newSecretToken}'s output (checked before any lookup). */
export function isSecretTokenShape(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** An opaque public reference: `prefix-` and 16 base64url characters (12 random bytes). */
export function newPublicRef(prefix: string): string {
  return `${prefix}-${randomBytes(12).toString('base64url')}`;
}

/** Lower-case hex SHA-256 of a UTF-8 string: how secrets are stored and looked up. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Compares a presented secret with the expected one in constant time; false when none was presented. */
export function secretsEqual(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const a = createHash('sha256').update(expected, 'utf8').digest();
  const b = createHash('sha256').update(presented, 'utf8').digest();
  return timingSafeEqual(a, b);
}
