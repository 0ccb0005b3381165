/**
 * @module Principals for tests that call the events domain directly (no
 * HTTP): a person who signed up (an account and a signed-in session, as
 * `POST /api/account/sign-up` makes them) or an anonymous visitor's session.
 */
import type { StartedSession } from '@agentready/identity';
import { createEventsIdentity } from '../../src/domain/events-identity.ts';
import type { EventsContext } from '../../src/domain/events-context.ts';
import { newTestEmail, TEST_PASSWORD } from './app-visitor.ts';

/**
 * Creates a new account (a new e-mail address, {@link TEST_PASSWORD}) and
 * signs it in, as the sign-up route does.
 *
 * @returns the signed-in session: `principal` (with `account`), `cookieValue`, `csrfToken`.
 * @throws Error when the sign-up is refused (a test set-up error).
 */
export async function signedUpSession(ctx: EventsContext, email: string = newTestEmail()): Promise<StartedSession> {
  const signedUp = await createEventsIdentity(ctx).signUp({ email, password: TEST_PASSWORD }, null);
  if (!signedUp.ok) throw new Error(`Sign-up was refused: ${signedUp.code} ${signedUp.message}`);
  return signedUp.value;
}

/** An anonymous visitor's new session (`principal.account` is null), as `GET /api/session` starts one. */
export async function visitorSession(ctx: EventsContext): Promise<StartedSession> {
  return createEventsIdentity(ctx).startVisitorSession();
}
