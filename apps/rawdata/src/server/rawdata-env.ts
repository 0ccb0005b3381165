/**
 * @module The Hono environment of the Rawdata server: what the session
 * middleware puts on every request's context.
 */
import type { Principal } from 'agentready';
import type { SessionState } from '@agentready/identity';

/** `new Hono<RawdataEnv>()` gives routes typed `c.get('principal')` and `c.get('session')`. */
export type RawdataEnv = {
  Variables: {
    /** The signed-in person's browser-session principal, or null (nobody signed in). */
    principal: Principal | null;
    /** The whole session (CSRF token included), or null. */
    session: SessionState | null;
  };
};
