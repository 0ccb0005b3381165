/**
 * @module What every page route of the Rawdata site shares: who is signed
 * in (as the navigation shows them), the sign-in redirect for a page that
 * needs a person, the 403 of a form post without the session's CSRF token,
 * the problem page, and the HTTP status of a refusal.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorCode } from 'agentready';
import { findAnalyst } from '../domain/analysts.ts';
import type { RawdataContext } from '../domain/rawdata-context.ts';
import { ProblemPage, type ProblemPageProps } from '../web/pages/problem-page.tsx';
import { renderPage, type SignedInPerson } from '../web/site-layout.tsx';
import type { RawdataEnv } from './rawdata-env.ts';

/**
 * The signed-in person as the navigation shows them, or null.
 *
 * @returns null when nobody is signed in; `operator` from their data platform profile.
 */
export async function personOf(c: Context<RawdataEnv>, ctx: RawdataContext): Promise<SignedInPerson> {
  const session = c.get('session');
  if (!session?.account) return null;
  const analyst = await findAnalyst(ctx, session.principal);
  return { operator: analyst.ok && analyst.value.operator, csrfToken: session.csrfToken };
}

/** 403 for a form post without a signed-in session or its CSRF token: nothing was changed. */
export function refusedPost(c: Context<RawdataEnv>) {
  return c.text('This form was not sent from your signed-in page (or your session ended). Reload the page and try again; nothing was changed.', 403);
}

/** The redirect to sign-in for a page that needs a person, coming back to the page asked for. */
export function signInFirst(c: Context<RawdataEnv>) {
  const url = new URL(c.req.url);
  return c.redirect(`/signin?next=${encodeURIComponent(`${url.pathname}${url.search}`)}`);
}

/** The problem page with `status` (404 not found, 403 not allowed, …). */
export function problemPage(c: Context<RawdataEnv>, person: SignedInPerson, status: ContentfulStatusCode, problem: ProblemPageProps) {
  return c.html(renderPage({ title: problem.title, person, children: <ProblemPage {...problem} /> }), status);
}

const FAILURE_STATUS: Partial<Record<ErrorCode, ContentfulStatusCode>> = {
  INVALID_INPUT: 400,
  UNAUTHENTICATED: 401,
  SESSION_EXPIRED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  BLOCKED: 409,
  RATE_LIMITED: 429,
  TEMPORARY_FAILURE: 503,
  INTERNAL_ERROR: 500,
};

/** The HTTP status a page answers a refused step with (400 for a code without its own). */
export function statusOfFailure(code: ErrorCode): ContentfulStatusCode {
  return FAILURE_STATUS[code] ?? 400;
}
