/**
 * @module Random bearer secrets (session cookies, CSRF tokens, confirmation
 * intents), the stored form of those that grant something (SHA-256: session
 * cookies and intents; a CSRF token is kept as issued, since the page must be
 * handed it again and it grants nothing without the cookie), and their
 * comparison in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes, base64url (43 characters). */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether `value` has the shape {@link newSecretToken} produces. */
export function isSecretTokenShape(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** Hex SHA-256 of `value`: what the database keeps instead of a secret. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * Compares a presented secret with the expected one in constant time (both are
 * hashed first, so their lengths never differ and never leak).
 *
 * @returns false when `presented` is missing or differs.
 */
export function secretsEqual(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const a = createHash('sha256').update(expected, 'utf8').digest();
  const b = createHash('sha256').update(presented, 'utf8').digest();
  return timingSafeEqual(a, b);
}
