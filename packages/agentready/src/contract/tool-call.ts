/**
 * @module What a tool's handler is told about its call and what it answers:
 * who calls (the principal), on which surface, under which trace id, and the
 * outcome it returns (data and guidance, or a failure) with the evidence it
 * adds to the call's audit record. Types only: the contract floor stays free
 * of I/O, and the invocation pipeline (agentready/runtime) fills them in.
 */
import type { FailureDetails, Guidance } from './envelope.ts';
import type { EffectClass } from './effects.ts';

/** Where a call came from: an agent in the page (WebMCP), an MCP client, or the person in the site's own UI. */
export type Surface = 'webmcp' | 'mcp' | 'ui';

/**
 * Who calls. `id` is internal: it reaches handlers and (as `ref`) audit
 * evidence, never a result.
 *
 * - `kind`: how the caller proved who it is: a browser `session`, a personal
 *   access `token`, or an `oauth` access token from a grant the person approved.
 * - `id`: the internal key the application files the caller's things under
 *   (the account's key when `account` is set; for an anonymous visitor's
 *   session, the session's key).
 * - `ref`: an opaque reference to that credential (`ses-…`, `pat-…`, `oag-…`)
 *   for audit evidence and logs.
 * - `account`: the account it acts for (`id` internal, `ref` opaque `acc-…`),
 *   or null/absent for an anonymous visitor.
 * - `scope`: the effect classes the credential may run; absent means every
 *   effect (a person in their own browser). The pipeline refuses a tool whose
 *   effect is not in it.
 * - `clientName`: who acts, as the person named it (a token's label) or as the
 *   client registered itself (an OAuth client's name), for activity pages.
 */
export type Principal = {
  id: string;
  kind: 'session' | 'token' | 'oauth';
  ref: string;
  account?: { id: string; ref: string } | null;
  scope?: readonly EffectClass[];
  clientName?: string;
};

/**
 * How far a handler has come, for a caller that asked to hear it (MCP
 * `notifications/progress`). `progress` must grow with each update (the MCP
 * rule; an update that does not is not sent); `total`, when known, is what
 * `progress` reaches at the end (both may be fractional, in the handler's
 * own unit: steps, rows); `message` is one sentence for the person, no
 * internal ID.
 */
export type ProgressUpdate = { progress: number; total?: number; message?: string };

/**
 * Hands a {@link ProgressUpdate} to the caller. Never rejects: an update the
 * surface cannot deliver is logged there and dropped, so it cannot fail the call.
 */
export type ProgressReport = (update: ProgressUpdate) => Promise<void>;

/** One version of a draft, as a confirmation token is bound to it and audit evidence keeps it. */
export type DraftRef = { id: string; version: number; hash: string };

/**
 * What a `write` or `commit` tool's handler gets besides its input: the claim
 * its call runs under on its idempotency key (docs/mutation-safety.md).
 */
export type CommitContext = {
  /**
   * Stores the handler's outcome as the call's answer INSIDE `trx`, the
   * database transaction (a Kysely transaction on the site's database) that
   * makes the call's effects, so that both commit together or not at all.
   * Call it last in that transaction. Throws (and the transaction must roll
   * back) when another call took the work over after this call's lease
   * ended, or when the outcome's data does not match the tool's output
   * schema. A handler that does not call it has its answer kept right after
   * it returns.
   */
  completeWithin(trx: unknown, outcome: { ok: boolean }): Promise<void>;
  /** True when this call took over the work of an earlier call with the same key that did not finish (a crash). */
  takeover: boolean;
};

/**
 * What a handler knows about its call besides its input.
 *
 * @typeParam App what the site hands every handler (its services, its
 *   database): the pipeline's `app` option.
 */
export type ToolCallContext<App = unknown> = {
  /** Who calls, or null for an anonymous caller (only `read` tools run without one). */
  principal: Principal | null;
  surface: Surface;
  /** The call's trace id: its audit record's, and every log line's about it. */
  traceId: string;
  /** The site's own services, as given to the pipeline (`app`). */
  app: App;
  /**
   * Present when the caller asked to hear progress (an MCP `tools/call` with
   * `_meta.progressToken`): call it between the steps of a long handler.
   * Absent otherwise, so `await call.reportProgress?.(…)`.
   */
  reportProgress?: ProgressReport;
  /** Present for a tool that runs under an idempotency key (`commit`, and `write` tools that take one). */
  commit?: CommitContext;
};

/** Evidence a handler adds to its call's audit record: the rule and metadata versions it applied, the draft and confirmation it used, what it made. */
export type ToolEvidence = {
  ruleVersion?: string;
  metadataVersion?: string;
  draft?: DraftRef;
  confirmationId?: string;
  /** Opaque IDs of what the call created or changed (an order, a registration). */
  resultingIds?: string[];
};

/**
 * What a handler answers: its data (before the output schema projects it)
 * and guidance, or a failure (a refusal the caller can act on, never a thrown
 * string), each with the evidence it adds.
 */
export type ToolOutcome<Data, Action extends string = string> =
  | { ok: true; data: Data; guidance?: Partial<Guidance<Action>>; evidence?: ToolEvidence }
  | { ok: false; failure: FailureDetails; evidence?: ToolEvidence };
