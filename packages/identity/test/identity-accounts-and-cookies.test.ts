/**
 * @module @agentready/identity's own rules, without an app: the password
 * length rule at its edges (counted in code points), one refusal for a wrong
 * password and for an unknown address, e-mail normalization, and the session
 * cookie reader and the paths a refusal clears (RFC 6265 §5.1.4 path-match).
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkCredentials,
  createAccount,
  findAccountByEmail,
  IDENTITY_MIGRATION_TABLE,
  identityMigrations,
  normalizeEmail,
  passwordProblem,
  presentedSessionCookie,
  sessionCookiePathsToClear,
  type IdentityContext,
  type IdentityTables,
} from '@agentready/identity';
import { migrateToLatest, openDatabase } from 'agentready/store';

/** `count` copies of a character (a code point) joined. */
function repeated(character: string, count: number): string {
  return Array.from({ length: count }, () => character).join('');
}

describe('the password rule', () => {
  it('accepts 10 to 256 characters, counted as code points, and refuses 9 and 257', () => {
    expect(passwordProblem(repeated('a', 9))).toMatch(/at least 10/);
    expect(passwordProblem(repeated('a', 10))).toBeNull();
    expect(passwordProblem(repeated('a', 256))).toBeNull();
    expect(passwordProblem(repeated('a', 257))).toMatch(/at most 256/);
  });

  it('counts an emoji (two UTF-16 units) and a CJK character as one each', () => {
    // Five emoji are ten UTF-16 units but five characters: too short.
    expect(passwordProblem(repeated('🔑', 5))).toMatch(/at least 10/);
    expect(passwordProblem(repeated('🔑', 10))).toBeNull();
    expect(passwordProblem(repeated('密', 10))).toBeNull();
    // 256 emoji are 512 units, still 256 characters.
    expect(passwordProblem(repeated('🔑', 256))).toBeNull();
    expect(passwordProblem(repeated('🔑', 257))).toMatch(/at most 256/);
  });
});

describe('accounts on a real SQLite database', () => {
  let db: Kysely<IdentityTables>;
  let ctx: IdentityContext;

  beforeAll(async () => {
    db = openDatabase<IdentityTables>({ url: ':memory:' });
    await migrateToLatest(db, [{ tableName: IDENTITY_MIGRATION_TABLE, migrations: identityMigrations }]);
    ctx = { db, now: () => new Date('2026-11-29T02:00:00Z') };
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('keeps e-mail addresses trimmed and lower-cased, so any spelling finds the one account', async () => {
    expect(normalizeEmail('  Mei.Lin@Example.COM \t')).toBe('mei.lin@example.com');
    const created = await createAccount(ctx, { email: ' Mei.Lin@Example.COM ', password: 'a long enough password' });
    expect(created.ok && created.value.email).toBe('mei.lin@example.com');
    const again = await createAccount(ctx, { email: 'mei.lin@example.com', password: 'another long password' });
    expect(again).toMatchObject({ ok: false, code: 'CONFLICT', field: 'email' });
    const signedIn = await checkCredentials(ctx, { email: 'MEI.LIN@example.com  ', password: 'a long enough password' });
    expect(signedIn.ok).toBe(true);
    expect((await findAccountByEmail(ctx, ' MEI.lin@EXAMPLE.com'))?.email).toBe('mei.lin@example.com');
  });

  it('answers a wrong password and an unknown address with the same refusal, naming neither', async () => {
    await createAccount(ctx, { email: 'ken@example.com', password: 'the right password' });
    const wrongPassword = await checkCredentials(ctx, { email: 'ken@example.com', password: 'the wrong password' });
    const unknownAddress = await checkCredentials(ctx, { email: 'nobody@example.com', password: 'the right password' });
    expect(wrongPassword.ok).toBe(false);
    expect(unknownAddress).toEqual(wrongPassword);
    expect(JSON.stringify(wrongPassword)).not.toMatch(/ken@|nobody@|field/);
  });

  it('refuses an address that is not one, and a short password, before storing anything', async () => {
    expect(await createAccount(ctx, { email: 'not an address', password: 'a long enough password' })).toMatchObject({ ok: false, field: 'email' });
    expect(await createAccount(ctx, { email: 'short@example.com', password: repeated('x', 9) })).toMatchObject({ ok: false, field: 'password' });
    expect(await findAccountByEmail(ctx, 'short@example.com')).toBeNull();
  });
});

describe('reading the session cookie from a Cookie header', () => {
  const NAME = 'ar_session';

  it('answers none without the header, without the cookie, and for names that only look like ours', () => {
    expect(presentedSessionCookie(undefined, NAME)).toEqual({ status: 'none' });
    expect(presentedSessionCookie('', NAME)).toEqual({ status: 'none' });
    expect(presentedSessionCookie('theme=dark; lang=en', NAME)).toEqual({ status: 'none' });
    expect(presentedSessionCookie('xar_session=a; ar_session_old=b; ar_sessions=c; __Host-ar_session=d', NAME)).toEqual({ status: 'none' });
  });

  it('reads one cookie among others, with or without spaces and quotes', () => {
    expect(presentedSessionCookie('ar_session=abc', NAME)).toEqual({ status: 'one', value: 'abc' });
    expect(presentedSessionCookie('theme=dark;ar_session=abc;  lang=en', NAME)).toEqual({ status: 'one', value: 'abc' });
    expect(presentedSessionCookie('xar_session=evil; ar_session=abc', NAME)).toEqual({ status: 'one', value: 'abc' });
    expect(presentedSessionCookie('ar_session="abc"', NAME)).toEqual({ status: 'one', value: 'abc' });
    expect(presentedSessionCookie('__Host-ar_session=abc; ar_session=other', '__Host-ar_session')).toEqual({ status: 'one', value: 'abc' });
  });

  it('passes over a nameless cookie (no "=") whose text starts with our name, so another site cannot lock the person out with one', () => {
    expect(presentedSessionCookie('ar_session1; ar_session=abc', NAME)).toEqual({ status: 'one', value: 'abc' });
    expect(presentedSessionCookie('ar_sessionX', NAME)).toEqual({ status: 'none' });
    expect(presentedSessionCookie('ar_session=abc; ar_session', NAME)).toEqual({ status: 'one', value: 'abc' });
  });

  it('answers several for two cookies of the name, even with the same value', () => {
    expect(presentedSessionCookie('ar_session=abc; ar_session=def', NAME)).toEqual({ status: 'several' });
    expect(presentedSessionCookie('ar_session=abc; theme=dark; ar_session=abc', NAME)).toEqual({ status: 'several' });
    expect(presentedSessionCookie('ar_session=abc; ar_session="def"', NAME)).toEqual({ status: 'several' });
  });
});

describe('the paths a refused request clears its session cookies at', () => {
  /** RFC 6265 §5.1.4: whether a cookie with path `cookiePath` is sent on a request to `requestPath`. */
  function pathMatches(cookiePath: string, requestPath: string): boolean {
    if (cookiePath === requestPath) return true;
    if (!requestPath.startsWith(cookiePath)) return false;
    return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
  }

  it('covers / and every path a browser sends a cookie of this request from, with and without a trailing slash', () => {
    const requestPath = '/api/registrations/reg-1/cancel';
    const cleared = sessionCookiePathsToClear(requestPath);
    // Every cookie path a tosser could choose that the browser sends on this request.
    const candidates = [
      '/',
      '/api',
      '/api/',
      '/api/registrations',
      '/api/registrations/',
      '/api/registrations/reg-1',
      '/api/registrations/reg-1/',
      requestPath,
    ];
    for (const path of candidates.filter((candidate) => pathMatches(candidate, requestPath))) {
      expect(cleared, path).toContain(path);
    }
    expect(sessionCookiePathsToClear('/')).toEqual(['/']);
    expect(sessionCookiePathsToClear('/api/session')).toEqual(expect.arrayContaining(['/', '/api', '/api/', '/api/session']));
  });

  it('names only paths that match the request, so no clearing lands elsewhere', () => {
    const requestPath = '/api/saved';
    for (const path of sessionCookiePathsToClear(requestPath)) expect(pathMatches(path, requestPath), path).toBe(true);
    for (const path of sessionCookiePathsToClear('/api/saved/')) expect(pathMatches(path, '/api/saved/'), path).toBe(true);
  });
});
