/**
 * @module
 * The page's calls of the site's tools (`POST /api/tools/:name`), answered
 * as the tool result envelope (docs/api.md). Part of the WebMCP chunk
 * (webmcp-connection.ts): a browser without WebMCP never loads the envelope.
 */
import { ERROR_CODE_LIST, fail, readToolResult, traceIdOf, withTraceId, type ErrorCode, type ToolResult, type WithTraceId } from 'agentready';
import { refusalOf, UNREADABLE_MESSAGE, type ApiClient } from './api-client.ts';

/** `code` when it is one of the envelope's error codes, else null. */
function knownCode(code: string): ErrorCode | null {
  return (ERROR_CODE_LIST as readonly string[]).includes(code) ? (code as ErrorCode) : null;
}

/**
 * Calls the tool `name` with `input` through `client` (the session, the CSRF
 * token) and answers with the tool result envelope the server sent (success
 * or failure, whatever the HTTP status). Its shape is checked, not its
 * `data` (the page tool reads that). A refusal that is not an envelope (the
 * session middleware's 401, a session that could not be opened) is answered
 * with the server's own code and its fixed `retryable` (UNAUTHENTICATED: not
 * retryable). When the server cannot be reached or names no code, answers
 * TEMPORARY_FAILURE (retryable); never throws. The call's trace id the
 * server named in `_meta["agentready/traceId"]` is kept in the result's `_meta`.
 */
export async function callSiteTool(client: ApiClient, name: string, input: unknown): Promise<WithTraceId<ToolResult<unknown>>> {
  const answer = await client.postForAnswer(`/api/tools/${encodeURIComponent(name)}`, input ?? {});
  // Nothing was sent or nothing arrived: the session's own refusal (a 401 is UNAUTHENTICATED, not retryable), else TEMPORARY_FAILURE.
  if (!answer.ok) return fail({ code: knownCode(answer.error.code) ?? 'TEMPORARY_FAILURE', message: answer.error.message }, client.getStateVersion());
  // The pipeline answers failures as envelopes too (with a 4xx status): an envelope is handed on whatever the status.
  const envelope = readToolResult(answer.data.body);
  const traceId = traceIdOf(answer.data.body);
  if (envelope !== null) return withTraceId(envelope, traceId);
  const refusal = refusalOf(answer.data.body);
  const code = refusal === null ? null : knownCode(refusal.code);
  if (refusal !== null && code !== null) return withTraceId(fail({ code, message: refusal.message }, client.getStateVersion()), traceId);
  return fail({ code: 'TEMPORARY_FAILURE', message: UNREADABLE_MESSAGE }, client.getStateVersion());
}
