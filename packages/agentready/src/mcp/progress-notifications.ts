/**
 * @module An operation's progress as MCP `notifications/progress`, for a
 * `tools/call` that carried `_meta.progressToken` (MCP "Progress", 2025-11-25
 * and 2026-07-28): each update names the token, its `progress` grows with
 * each notification, `total` and `message` are optional, and nothing is sent
 * once the call has answered. Over Streamable HTTP the SDK then answers the
 * call as an SSE stream that carries the notifications before the result.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import type { ProgressReport, ProgressUpdate } from '../contract/tool-call.ts';

/** Progress of one `tools/call`: what the operation reports through, and the end of the call. */
export type CallProgress = {
  /** Sends one update, or drops it (reported to `onError`) when it breaks the rules; never rejects. */
  report: ProgressReport;
  /** The call has answered: later updates are dropped (reported to `onError`). */
  finish(): void;
};

/**
 * The progress of the `tools/call` that `ctx` serves, or null when its client
 * asked for none (no `_meta.progressToken`).
 *
 * An update is sent as `notifications/progress` `{ progressToken, progress,
 * total?, message? }` through `ctx.mcpReq.notify`, related to this request.
 * It is dropped, and `onError` hears why, when `progress` is not a finite
 * number greater than the last one sent, `total` is not a finite number,
 * the call has already answered, or the send fails (the client went away);
 * the call goes on as if nothing happened.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/progress
 */
export function callProgressOf(ctx: ServerContext, onError: ((error: Error) => void) | undefined): CallProgress | null {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return null;
  let lastSent: number | null = null;
  let finished = false;
  const drop = (why: string) => {
    try {
      onError?.(new Error(`A progress notification was not sent: ${why}`));
    } catch {
      // A log that throws must not fail the operation that reported progress.
    }
  };
  return {
    async report(update: ProgressUpdate) {
      const problem = finished ? 'the tool call has already answered.' : updateProblem(update, lastSent);
      if (problem !== null) return drop(problem);
      lastSent = update.progress;
      try {
        await ctx.mcpReq.notify({
          method: 'notifications/progress',
          params: {
            progressToken,
            progress: update.progress,
            ...(update.total !== undefined && { total: update.total }),
            ...(update.message !== undefined && { message: update.message }),
          },
        });
      } catch (error) {
        drop(`sending it failed (${error instanceof Error ? error.message : String(error)}).`);
      }
    },
    finish() {
      finished = true;
    },
  };
}

/** Why `update` may not be sent after `lastSent`, or null when it may (the MCP rule: progress increases with each notification). */
function updateProblem(update: ProgressUpdate, lastSent: number | null): string | null {
  if (typeof update.progress !== 'number' || !Number.isFinite(update.progress)) return 'its progress is not a finite number.';
  if (update.total !== undefined && (typeof update.total !== 'number' || !Number.isFinite(update.total))) return 'its total is not a finite number.';
  if (lastSent !== null && update.progress <= lastSent) return `its progress (${update.progress}) does not increase on the last one sent (${lastSent}).`;
  return null;
}
