/**
 * @module `/api/account/*` (docs/events-api.md, "Accounts"): sign up, sign in,
 * sign out, sign out everywhere, change password. Session and CSRF come from
 * the app's `/api` middleware, so a form another site posts never reaches
 * these handlers. Signing up or in always starts a new session (a new cookie
 * and CSRF token); the visitor's saved events join the account.
 */
import { Hono, type Context } from 'hono';
import { callerAddressOf, clearSessionCookies, sessionCookiePolicy, setSessionCookie, type StartedSession } from '@agentready/identity';
import type { EventsIdentity } from '../domain/events-identity.ts';
import type { SignInAttempt, SignInLimits } from 'agentready/runtime';
import { respondWithFailure, type ApiFailure } from './error-responses.ts';
import { requiredSession, type EventsEnv } from './events-env.ts';
import { parseJsonBody } from './request-input.ts';
import { changePasswordBodySchema, credentialsBodySchema } from './request-schemas.ts';

/** Options of {@link accountRoutes}. */
export type AccountRoutesOptions = {
  identity: EventsIdentity;
  siteUrl: string | undefined;
  /**
   * Counts every sign-in attempt per account and per caller address before
   * the password is checked (a password change's check of the current one
   * included), and every sign-up per caller address (and per address signed
   * up with): a refusal (RATE_LIMITED with
   * `retryAfterSeconds`, or TEMPORARY_FAILURE when the count cannot be kept)
   * answers at once. A successful sign-in (or password check) clears the
   * account's count and gives its address's point back, so only failures
   * count against an address; a sign-up keeps its point. Default: none.
   */
  signInLimits?: SignInLimits;
};

/**
 * Routes under `/api` for accounts.
 *
 * @example app.route('/api', accountRoutes({ identity, siteUrl }));
 */
export function accountRoutes(options: AccountRoutesOptions): Hono<EventsEnv> {
  const { identity, signInLimits } = options;
  const routes = new Hono<EventsEnv>();
  const policyOf = (c: Context) => sessionCookiePolicy(options.siteUrl, c.req.url);
  const entry = accountEntry(options);

  routes.post('/account/sign-up', async function signUp(c) {
    const body = await parseJsonBody(c, credentialsBodySchema);
    if (!body.ok) return respondWithFailure(c, body.failure);
    const entered = await entry.enter(c, 'signup', body.value, requiredSession(c).sessionId);
    if (!entered.ok) return respondWithFailure(c, entered.failure);
    return c.json(signedInBody(entered.session), 201);
  });

  routes.post('/account/sign-in', async function signIn(c) {
    const body = await parseJsonBody(c, credentialsBodySchema);
    if (!body.ok) return respondWithFailure(c, body.failure);
    const entered = await entry.enter(c, 'signin', body.value, requiredSession(c).sessionId);
    if (!entered.ok) return respondWithFailure(c, entered.failure);
    return c.json(signedInBody(entered.session), 200);
  });

  routes.post('/account/sign-out', async function signOut(c) {
    await identity.signOut(requiredSession(c).sessionId);
    clearSessionCookies(c, policyOf(c));
    return c.json({ signedIn: false });
  });

  routes.post('/account/sign-out-everywhere', async function signOutEverywhere(c) {
    const session = requiredSession(c);
    if (!session.account) return respondWithFailure(c, notSignedIn());
    const endedSessions = await identity.signOutEverywhere(session.account.id);
    clearSessionCookies(c, policyOf(c));
    return c.json({ signedIn: false, endedSessions });
  });

  routes.post('/account/password', async function changePassword(c) {
    const body = await parseJsonBody(c, changePasswordBodySchema);
    if (!body.ok) return respondWithFailure(c, body.failure);
    const session = requiredSession(c);
    if (!session.account) return respondWithFailure(c, notSignedIn());
    // Checking the current password is a sign-in attempt too: someone holding a stolen session must not guess it without end.
    const attempt = signInAttemptOf(c, session.account.email);
    const limited = await signInLimits?.attempt(attempt);
    if (limited) return respondWithFailure(c, limited);
    const result = await identity.changePassword(session.account.id, session.sessionId, body.value);
    if (!result.ok) return respondWithFailure(c, result);
    await signInLimits?.succeeded(attempt);
    return c.json(result.value);
  });

  return routes;
}

/** The answer to a sign-in or sign-up the page's script sent: the new session's CSRF token and state version. */
function signedInBody(session: StartedSession) {
  return { signedIn: true, csrfToken: session.csrfToken, stateVersion: session.stateVersion };
}

/** Signing in or up, as both the page's script (`/api/account/*`) and the plain form (`POST /signin`, `/signup`) do it. */
export type AccountEntry = {
  /**
   * Signs up (`signup`) or in (`signin`) with `credentials`, counting the
   * attempt against the sign-in limits first; on success the visitor
   * session `previousSessionId` (its saved events join the account) is
   * replaced by a new session whose cookie is set on `c`.
   *
   * @returns the new session; or the refusal: INVALID_INPUT with `field`
   *   (the account rules), UNAUTHENTICATED (wrong e-mail or password),
   *   CONFLICT (an account exists), RATE_LIMITED with `retryAfterSeconds`,
   *   TEMPORARY_FAILURE.
   */
  enter(
    c: Context,
    kind: 'signin' | 'signup',
    credentials: { email: string; password: string },
    previousSessionId: number | null,
  ): Promise<{ ok: true; session: StartedSession } | { ok: false; failure: ApiFailure }>;
};

/** The one way into an account, for {@link accountRoutes} and the sign-in pages' form posts. */
export function accountEntry(options: AccountRoutesOptions): AccountEntry {
  const { identity, signInLimits } = options;
  return {
    async enter(c, kind, credentials, previousSessionId) {
      // Sign-ups spend the same per-address budget as sign-ins, so one place cannot mint accounts (or probe addresses) without end.
      const attempt = signInAttemptOf(c, kind === 'signup' ? `sign-up ${credentials.email}` : credentials.email);
      const limited = await signInLimits?.attempt(attempt);
      if (limited) return { ok: false, failure: limited };
      const result = kind === 'signup' ? await identity.signUp(credentials, previousSessionId) : await identity.signIn(credentials, previousSessionId);
      if (!result.ok) return { ok: false, failure: result };
      if (kind === 'signin') await signInLimits?.succeeded(attempt);
      const policy = sessionCookiePolicy(options.siteUrl, c.req.url);
      clearSessionCookies(c, policy);
      setSessionCookie(c, policy, result.value);
      return { ok: true, session: result.value };
    },
  };
}

function notSignedIn(): ApiFailure {
  return { code: 'UNAUTHENTICATED', message: 'You are not signed in.', nextAction: 'Sign in, then try again.' };
}

/** One sign-in attempt under `account` from the caller's address (the socket's, never a forwarded header), for the sign-in limits. */
function signInAttemptOf(c: Context, account: string): SignInAttempt {
  const address = callerAddressOf(c);
  return { account, ...(address !== undefined && { callerAddress: address }) };
}
