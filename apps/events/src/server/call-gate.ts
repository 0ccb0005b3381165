/**
 * @module The door every call passes at `/api` and `/mcp`: while the site
 * runs, each request is counted as a call in flight until it is answered;
 * once shutdown began, a new request is refused at once with 503 and
 * `Retry-After`, in the shape its client reads (the envelope under `/api`, a
 * JSON-RPC error at `/mcp`), and nothing runs.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { fail } from 'agentready';
import type { CallDrain } from 'agentready/runtime';

/** Seconds a refused client is told to wait before it tries again (`Retry-After`). */
const RETRY_AFTER_SECONDS = 2;

const RESTARTING = 'The site is restarting and did not run this request.';
const TRY_AGAIN = 'Try the same request again in a moment.';

/**
 * The gate of `/api/*`: a refusal is the envelope's failure branch,
 * TEMPORARY_FAILURE (retryable), status 503.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#name-503-service-unavailable
 */
export function apiCallGate(drain: CallDrain): MiddlewareHandler {
  return callGate(drain, function refuseApiCall(c) {
    return c.json(fail({ code: 'TEMPORARY_FAILURE', message: RESTARTING, nextAction: TRY_AGAIN }, 0), 503, {
      'Retry-After': String(RETRY_AFTER_SECONDS),
    });
  });
}

/**
 * The gate of `/mcp`: a refusal is a JSON-RPC error with id null, status
 * 503, as the endpoint answers when its token store is down. `onRefused`
 * hears each refused request first (to leave evidence of the tool calls it
 * carried).
 */
export function mcpCallGate(drain: CallDrain, onRefused: (request: Request) => Promise<void> = async () => {}): MiddlewareHandler {
  return callGate(drain, async function refuseMcpCall(c) {
    await onRefused(c.req.raw);
    return c.json({ jsonrpc: '2.0', error: { code: -32603, message: `${RESTARTING} ${TRY_AGAIN}` }, id: null }, 503, {
      'Retry-After': String(RETRY_AFTER_SECONDS),
    });
  });
}

function callGate(drain: CallDrain, refuse: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  return async function admitCall(c, next) {
    const callFinished = drain.admit();
    if (callFinished === null) return refuse(c);
    try {
      await next();
    } finally {
      callFinished();
    }
  };
}
