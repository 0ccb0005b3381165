/**
 * @module The Hono environment of the events server: what middleware puts on
 * the request context for later routes (including the lead's tool route).
 */
import type { Principal } from 'agentready/runtime';
import type { SessionState } from '../domain/sessions.ts';

/** Context variables set by the session middleware on every `/api/*` request. */
export type EventsVariables = {
  /** The anonymous session's principal: `id` is internal, `ref` is for logs and audit. */
  principal: Principal;
  /** The whole session: principal, CSRF token and `stateVersion` as read at the start of the request. */
  session: SessionState;
};

/** `new Hono<EventsEnv>()` gives routes typed `c.get('principal')` and `c.get('session')`. */
export type EventsEnv = { Variables: EventsVariables };
