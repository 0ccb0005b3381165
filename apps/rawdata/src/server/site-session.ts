/**
 * @module Sessions on the Rawdata site's pages: the toolkit's page sessions
 * (@agentready/identity `createPageSessions`) under the site's own cookie
 * (`ard_session`, `__Host-` on https). Every form post passes the browser's
 * own cross-origin check (Hono's `csrf`: Origin / Sec-Fetch-Site) and, once
 * signed in, carries the session's CSRF token in its `csrf_token` field
 * (`hasSessionCsrfToken`).
 */
import type { Kysely } from 'kysely';
import type { SignInLimits } from 'agentready/runtime';
import { createPageSessions, type IdentityTables, type PageSessions } from '@agentready/identity';
import type { RawdataDatabase } from '../store/schema.ts';

export { hasSessionCsrfToken } from '@agentready/identity';

/** The site's session cookie name (not the Events site's, so both can run on one host). */
export const RAWDATA_SESSION_COOKIE = 'ard_session';

/** Sessions of the Rawdata site on its database: middleware, sign-in (with its limits) and sign-out. */
export type SiteSessions = PageSessions;

/**
 * Builds the site's sessions.
 *
 * @param siteUrl the public URL when configured (an https one makes the cookie `__Host-` and `Secure`).
 * @param signInLimits attempts per account and per address (default: none).
 */
export function createSiteSessions(db: Kysely<RawdataDatabase>, now: () => Date, siteUrl: string | undefined, signInLimits?: SignInLimits): SiteSessions {
  return createPageSessions({
    identity: { db: db as unknown as Kysely<IdentityTables>, now },
    cookieName: RAWDATA_SESSION_COOKIE,
    ...(siteUrl !== undefined && { siteUrl }),
    ...(signInLimits !== undefined && { signInLimits }),
  });
}
