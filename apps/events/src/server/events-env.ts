/**
 * @module The Hono environment of the events server: what middleware puts on
 * the request context for later routes (including the tool route).
 */
import type { Context } from 'hono';
import type { Principal } from 'agentready';
import type { SessionState } from '@agentready/identity';

/** Context variables set by the session middleware on every `/api/*` request. */
export type EventsVariables = {
  /**
   * The session's principal (`account` set when the person is signed in; `id`
   * is internal, `ref` is for logs and audit), or null for a reading request
   * that came without a session.
   */
  principal: Principal | null;
  /** The whole session (principal, account, CSRF token, `stateVersion` as read at the start of the request), or null. */
  session: SessionState | null;
  /**
   * The trace id of the tool call a request to `/api/tools/:name` makes
   * (a UUID the server chose, never one the caller sent), set before any
   * other middleware: the call's audit record and its answer's
   * `_meta["agentready/traceId"]` both name it, whoever answers.
   */
  traceId: string;
};

/** `new Hono<EventsEnv>()` gives routes typed `c.get('principal')` and `c.get('session')`. */
export type EventsEnv = { Variables: EventsVariables };

/**
 * The session of a request the session middleware only lets through with one
 * (every state-changing request, and `GET /api/session`).
 *
 * @throws Error when there is none: a route was mounted where the middleware does not guarantee it.
 */
export function requiredSession(c: Context<EventsEnv>): SessionState {
  const session = c.get('session');
  if (!session)
    throw new Error(
      `No session on ${c.req.method} ${c.req.path}; the session middleware guarantees one only for state-changing requests and GET /api/session.`,
    );
  return session;
}
