/**
 * @module The invocation pipeline: the one call path every surface uses
 * (docs/architecture.md, "One call's path"): validate input → principal → authorize →
 * run the operation → project the output → envelope → audit evidence.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Catalog } from '../contract/catalog.ts';
import type { ToolContract } from '../contract/define-tool.ts';
import { requiresPrincipal, type EffectClass } from '../contract/effects.ts';
import { fail, succeed, type FailureDetails, type ToolResult } from '../contract/envelope.ts';
import { parseToolInput } from '../contract/input-validation.ts';
import { textInputRefusal } from '../contract/text-input.ts';
import type { Principal, ProgressReport, Surface, ToolCallContext, ToolEvidence, ToolOutcome } from '../contract/tool-call.ts';
import type { AuditEvidence, AuditSink } from './audit-log.ts';
import type { CallDrain } from './call-drain.ts';
import { credentialTest, summarizeInput } from './input-summary.ts';
import type { CommitContext } from '../contract/tool-call.ts';
import { runCommitUnderKey, type StoredCommitAnswer } from './commit-step.ts';
import type { IdempotencyLedger } from './idempotency.ts';
import { rateLimitFailure, type RateLimiter } from './rate-limits.ts';
import { unexpectedErrorCode } from './unexpected-errors.ts';

/**
 * The principal a bearer access token stands for, and when the token stops
 * working. What an app's token check answers, and what a surface that accepts
 * bearer tokens (agentready/mcp, createMcpHttpEndpoint) takes.
 */
export type VerifiedAccessToken = { principal: Principal; expiresAt: Date };

/**
 * Finds who calls, when the surface must ask a store (a bearer token looked up
 * at every call). A lookup that throws makes the call TEMPORARY_FAILURE, with evidence.
 */
export type PrincipalLookup = () => Promise<Principal | null>;

/** A call as a surface hands it over. */
export type Invocation = {
  tool: string;
  input: unknown;
  /** Who calls: known already, nobody (null), or to be looked up as the call starts. */
  principal: Principal | null | PrincipalLookup;
  surface: Surface;
  /** The site's URL as this caller reached it (the MCP endpoint's origin), for links in answers. */
  siteUrl?: string;
  /** The network address the call came from, when the surface knows it (an HTTP client's IP; none on stdio). */
  callerAddress?: string;
  /** Where the handler's progress goes, when the caller asked to hear it; handed on as `ToolCallContext.reportProgress`. */
  reportProgress?: ProgressReport;
  /**
   * The call's trace id when the surface chose it, to hand it back with the
   * result (an MCP result's `_meta["agentready/traceId"]`): a UUID the surface
   * made for this call, never one a caller sent. Default: the pipeline makes one.
   */
  traceId?: string;
};

/**
 * The key a call is counted under by a rate limit, or null to count it under
 * none. `call` is what the surface said about it.
 */
export type RateLimitKeyOf = (principal: Principal | null, call: { surface: Surface; callerAddress?: string }) => string | null;

/**
 * The default {@link RateLimitKeyOf}: the account's reference when the
 * principal acts for one (all its sessions and tokens share one count), else
 * the principal's credential reference, else the caller's address (`addr-…`),
 * else none (stdio: one local client, nothing to share).
 */
export const principalRateLimitKey: RateLimitKeyOf = (principal, call) => {
  if (principal?.account) return principal.account.ref;
  if (principal) return principal.ref;
  return call.callerAddress ? `addr-${call.callerAddress}` : null;
};

/** Options of {@link createInvocationPipeline}. */
export type PipelineOptions<T extends ToolContract, App = unknown> = {
  /** The tools this pipeline runs, each with its handler. */
  catalog: Catalog<T>;
  /** What every handler gets as `call.app`: the site's own services. Default: undefined. */
  app?: App;
  /** The principal's visible-state counter (0 for no principal). */
  stateVersionOf: (principal: Principal | null) => Promise<number>;
  audit: AuditSink;
  logger: Logger;
  /**
   * Which tools run for a caller without a principal. Default: the `read`
   * tools; every other tool answers such a caller UNAUTHENTICATED.
   */
  runsForAnyone?: (tool: T) => boolean;
  /**
   * Extra authorization after the effect rule (non-read tools need a principal).
   * Return failure details to refuse. Default: allow.
   */
  authorize?: (tool: T, principal: Principal | null) => FailureDetails | null;
  /**
   * The `nextAction` of UNAUTHENTICATED on each surface: how the caller gets a
   * principal there (reload the page; create an access token at the site's
   * URL and configure the MCP client with it). Default: "Connect as a person
   * of this site, then call again."
   */
  howToConnect?: (call: { surface: Surface; siteUrl?: string }) => string;
  /** Clock for audit timestamps. Default `() => new Date()`. */
  now?: () => Date;
  /**
   * The process's calls in flight, for a graceful shutdown: each call is
   * admitted until its audit evidence is written. Once the drain began, a
   * call is answered TEMPORARY_FAILURE at once (with evidence), and a call
   * whose operation fails meanwhile (interrupted at the end of the grace
   * period) says the service is shutting down. Default: no drain.
   */
  drain?: CallDrain;
  /**
   * What the application's credentials look like (its access tokens, say
   * `/are_pat_/`): an input value or key, or a tool name, that matches is
   * redacted in audit evidence wherever it stands ({@link summarizeInput}). Default: none.
   */
  credentialPattern?: RegExp;
  /**
   * Counts each call (one point) under `keyOf` (default {@link principalRateLimitKey})
   * once its principal is known, before anything else: a call over the limit
   * runs nothing and answers RATE_LIMITED with `retryAfterSeconds`, with its
   * audit evidence. Default: no limit.
   */
  rateLimit?: { limiter: RateLimiter; keyOf?: RateLimitKeyOf };
  /**
   * Where `commit` tools' idempotency keys are claimed and their answers
   * kept (idempotency.ts). Required when the catalog holds a commit tool.
   */
  idempotency?: IdempotencyLedger;
};

/** The pipeline: one method, used by every surface. */
export type InvocationPipeline = {
  /**
   * Runs one tool call.
   *
   * @returns the envelope, never throws for anything the caller sent: an unknown
   *   tool is NOT_FOUND, bad input INVALID_INPUT with `field` (a string that breaks
   *   the text rule of every tool input too, contract/text-input.ts), no principal for a
   *   non-read tool UNAUTHENTICATED, an operation that throws a programming error
   *   ({@link unexpectedErrorCode}) or returns data the output schema rejects INTERNAL_ERROR,
   *   one that throws anything else TEMPORARY_FAILURE (details go to the log under the trace id),
   *   and so is a call that arrives once the `drain` began (it does not run); a call
   *   over the `rateLimit` RATE_LIMITED with `retryAfterSeconds` (it does not run); on a
   *   site-only catalog, any call not on surface `ui` by a `session` principal FORBIDDEN (it does not run).
   */
  invoke(call: Invocation): Promise<ToolResult<unknown>>;
  /**
   * Records a call its surface refused before the pipeline could run it (on
   * MCP, a `tools/call` refused as a protocol error: an unknown tool, or
   * `arguments` that are not an object), so that it too leaves its one audit
   * record, with `failure.code` as the outcome. Runs no operation; the
   * principal is looked up for the record only (a lookup that throws records
   * nobody). `call.tool` may be any text the caller sent, or empty when it
   * sent none.
   *
   * @returns the failure envelope of `failure`, for a surface that answers with one.
   */
  recordRefusal(call: Invocation, failure: FailureDetails): Promise<ToolResult<unknown>>;
  /** Whether `name` is a tool of this pipeline's catalog. */
  knows(name: string): boolean;
};

/**
 * Builds the invocation pipeline for a catalog of tools and their handlers.
 *
 * A `commit` tool, and a `write` tool whose input takes `idempotency_key`,
 * runs under its idempotency key (runtime/commit-step.ts): a repeat replays
 * the first answer and never acts twice.
 *
 * @throws Error (at start-up) when a tool of the catalog has no handler, or the catalog holds a tool
 *   that runs under an idempotency key and `options.idempotency` is missing.
 * @example
 * const pipeline = createInvocationPipeline({ catalog, app: services, stateVersionOf, audit, logger });
 * const result = await pipeline.invoke({ tool: 'search_events', input: { keyword: 'WebMCP' }, principal, surface: 'webmcp' });
 */
export function createInvocationPipeline<T extends ToolContract, App = unknown>(options: PipelineOptions<T, App>): InvocationPipeline {
  const { catalog, logger } = options;
  const withoutHandler = catalog.tools.filter((tool) => tool.handler === undefined).map((tool) => tool.name);
  if (withoutHandler.length > 0) throw new Error(`Every tool a pipeline runs needs a handler; these have none: ${withoutHandler.join(', ')}.`);
  const asksPerson = catalog.tools.filter((tool) => tool.confirm !== undefined).map((tool) => tool.name);
  if (asksPerson.length > 0) {
    throw new Error(
      `These tools ask the person to confirm (confirm), so no pipeline runs them directly: ${asksPerson.join(', ')}. Serve them with createAgentSite (agentready/site).`,
    );
  }
  if (!options.idempotency && catalog.tools.some(runsUnderKey)) throw new Error(NO_LEDGER);

  return {
    knows: (name) => catalog.has(name),
    async invoke(call) {
      const started = performance.now();
      const evidence = evidenceOf(call, options);
      const callFinished = options.drain ? options.drain.admit() : () => {};
      const record: EvidenceRecording = { started, withEffects: false };
      let result: ToolResult<unknown>;
      try {
        result =
          callFinished === null
            ? shuttingDown(0)
            : await run(call, evidence.traceId, evidence, record).catch((error: unknown) => {
                // Only the pipeline's own steps can get here (handlers are caught in run): still an envelope, still evidence.
                logger.error({ err: error, traceId: evidence.traceId }, 'tool call failed outside its handler');
                record.withEffects = false;
                return unexpectedErrorAnswer(error, 0);
              });
        // A changing call's record committed with its effects already; every other call's is written now.
        if (!record.withEffects) await recordEvidence(options, evidence, result, started);
      } finally {
        callFinished?.();
      }
      return result;
    },
    recordRefusal: (call, failure) => recordRefusedCall(options as unknown as PipelineOptions<ToolContract>, call, failure),
  };

  async function run(invocation: Invocation, traceId: string, evidence: AuditEvidence, record: EvidenceRecording): Promise<ToolResult<unknown>> {
    // A lookup that throws ends here, in invoke's catch: TEMPORARY_FAILURE, with evidence.
    const principal = typeof invocation.principal === 'function' ? await invocation.principal() : invocation.principal;
    Object.assign(evidence, actingFor(principal, invocation.surface));
    const call = { ...invocation, principal };
    const limited = await rateLimitRefusal(options.rateLimit, call, traceId);
    if (limited) return fail(limited, await stateVersionOrZero(options, principal, traceId));
    const stateVersion = () => stateVersionOrZero(options, call.principal, traceId);
    const siteOnly = siteOnlyRefusal(catalog, call, evidence);
    if (siteOnly) return fail(siteOnly, await stateVersion());
    const tool = catalog.get(call.tool);
    const handler = tool?.handler;
    if (!tool || !handler) {
      return fail({ code: 'NOT_FOUND', message: 'No tool has that name.', nextAction: `Use one of: ${catalog.names.join(', ')}.` }, await stateVersion());
    }
    const parsed = parseToolInput(tool.input, call.input);
    if (!parsed.ok) return fail(parsed.failure, await stateVersion());
    const brokenText = textInputRefusal(tool.input, parsed.value);
    if (brokenText) return fail(brokenText, await stateVersion());
    const refusal = authorizationRefusal(options as unknown as PipelineOptions<ToolContract>, tool, call, evidence);
    if (refusal) return fail(refusal, refusal.code === 'UNAUTHENTICATED' ? 0 : await stateVersion());

    const context = callContextOf(call, traceId, options.app);
    const operate = async (commit?: CommitContext): Promise<StoredCommitAnswer> => {
      const outcome = await handler.call(tool, parsed.value, commit ? { ...context, commit } : context);
      // An output the schema rejects throws here, so the effects of its call roll back like a thrown handler's.
      return withEvidence(resultOf(catalog, logger, tool, outcome, traceId), evidence);
    };
    const within = effectTransaction(options.audit, tool, evidence, record);
    let result: ToolResult<unknown>;
    try {
      result = runsUnderKey(tool)
        ? await runCommitUnderKey({
            ledger: options.idempotency as IdempotencyLedger,
            // A caller without a principal (a tool that runs for anyone) keys in one shared scope: its keys must be unguessable.
            ownerId: call.principal?.id ?? ANONYMOUS_KEY_OWNER,
            tool: tool.name,
            input: parsed.value as Record<string, unknown>,
            evidence,
            stateVersion,
            operate,
            resultOf: (outcome) => resultOf(catalog, logger, tool, outcome as ToolOutcome<unknown>, traceId),
            ...(within && { within }),
          })
        : (await (within ? within(() => operate()) : operate())).result;
    } catch (error) {
      // An output the schema rejected was logged with its issues already.
      if (!(error instanceof OutputSchemaMismatch)) logger.error({ err: error, traceId, tool: tool.name }, 'tool handler failed');
      // Whatever the operation did was rolled back with its record: the failure's record is written after.
      record.withEffects = false;
      evidence.resultingIds = [];
      return failedCall(options.drain, error, await stateVersion());
    }
    return { ...result, stateVersion: await stateVersion() };
  }
}

/**
 * Whether a tool's calls run under an idempotency key: every `commit` tool
 * (its contract takes one), and a `write` tool whose input takes
 * `idempotency_key` (DESIGN: a write is idempotent through a key or a natural key).
 */
function runsUnderKey(tool: ToolContract): boolean {
  return tool.effect === 'commit' || (tool.effect === 'write' && Object.hasOwn(tool.input.shape, 'idempotency_key'));
}

/** How a call's evidence is written: when the call began (`performance.now()`), and whether its record committed with its effects. */
type EvidenceRecording = { started: number; withEffects: boolean };

/**
 * The call transaction of a tool that may change something (`prepare`,
 * `write`, `commit`) on a sink that offers one ({@link AuditSink.withEffects}):
 * runs the operation (with its key's settling) and then writes the call's
 * record inside the transaction of its effects, so both commit together.
 * A record that cannot be written rolls the effects back (the call then
 * answers TEMPORARY_FAILURE). Undefined for a `read` tool, or a sink without
 * one: the record is written after the call, as for every refusal.
 */
function effectTransaction(
  audit: AuditSink,
  tool: ToolContract,
  evidence: AuditEvidence,
  record: EvidenceRecording,
): ((work: () => Promise<StoredCommitAnswer>) => Promise<StoredCommitAnswer>) | undefined {
  if (tool.effect === 'read' || audit.withEffects === undefined) return undefined;
  const seal = async (answer: StoredCommitAnswer) => {
    evidence.outcomeCode = answer.result.code;
    evidence.durationMs = performance.now() - record.started;
    await audit.record(evidence);
    record.withEffects = true;
  };
  return (work) => audit.withEffects!(work, seal);
}

/** What a handler is told about its call besides its input: who, where, the trace id, the site's services, and where progress goes when the caller asked. */
function callContextOf<App>(call: Invocation & { principal: Principal | null }, traceId: string, app: App): ToolCallContext<App> {
  return {
    principal: call.principal,
    surface: call.surface,
    traceId,
    app,
    ...(call.reportProgress !== undefined && { reportProgress: call.reportProgress }),
  };
}

/** Writes the call's audit evidence with its outcome and duration; a sink that fails is logged, never the caller's problem. */
async function recordEvidence(
  options: Pick<PipelineOptions<ToolContract>, 'audit' | 'logger'>,
  evidence: AuditEvidence,
  result: ToolResult<unknown>,
  started: number,
): Promise<void> {
  evidence.outcomeCode = result.code;
  evidence.durationMs = performance.now() - started;
  try {
    await options.audit.record(evidence);
  } catch (error) {
    options.logger.error({ err: error, traceId: evidence.traceId }, 'audit evidence could not be written');
  }
}

/** {@link InvocationPipeline.recordRefusal}: the principal looked up for the record only, the failure as the outcome. */
async function recordRefusedCall(options: PipelineOptions<ToolContract>, call: Invocation, failure: FailureDetails): Promise<ToolResult<unknown>> {
  const started = performance.now();
  const evidence = evidenceOf(call, options);
  let principal: Principal | null = null;
  try {
    principal = typeof call.principal === 'function' ? await call.principal() : call.principal;
  } catch (error) {
    options.logger.error({ err: error, traceId: evidence.traceId }, 'principal of a refused call could not be looked up');
  }
  Object.assign(evidence, actingFor(principal, call.surface));
  const result = fail(failure, 0);
  await recordEvidence(options, evidence, result, started);
  return result;
}

/**
 * The answer to a call whose operation threw `error`: TEMPORARY_FAILURE saying
 * so when the process is shutting down; INTERNAL_ERROR for a fault in the
 * site's own code (a programming error, or an output its schema rejects);
 * TEMPORARY_FAILURE for anything else (a database, a network, a service that failed).
 */
function failedCall(drain: CallDrain | undefined, error: unknown, stateVersion: number) {
  if (drain && !drain.admitting) return shuttingDown(stateVersion);
  return error instanceof OutputSchemaMismatch ? internalError(stateVersion) : unexpectedErrorAnswer(error, stateVersion);
}

/** The answer to an exception nothing expected, by the rule of {@link unexpectedErrorCode}: INTERNAL_ERROR or TEMPORARY_FAILURE. */
function unexpectedErrorAnswer(error: unknown, stateVersion: number) {
  return unexpectedErrorCode(error) === 'INTERNAL_ERROR' ? internalError(stateVersion) : temporaryFailure(stateVersion);
}

/** What the operation's answer throws when its data does not match the tool's output schema (the cause is logged where it is found). */
class OutputSchemaMismatch extends Error {
  constructor(toolName: string) {
    super(`The output of ${toolName} does not match its schema.`);
    this.name = 'OutputSchemaMismatch';
  }
}

/** The principal's state version; a version that cannot be read must not turn a done operation into a failure. */
function stateVersionOrZero(
  options: Pick<PipelineOptions<ToolContract>, 'stateVersionOf' | 'logger'>,
  principal: Principal | null,
  traceId: string,
): Promise<number> {
  return options.stateVersionOf(principal).catch((error: unknown) => {
    options.logger.error({ err: error, traceId }, 'state version could not be read');
    return 0;
  });
}

/** The evidence a call starts with: a new trace id, the time, the tool's name as it may be kept, the redacted input. */
function evidenceOf(call: Invocation, options: Pick<PipelineOptions<ToolContract>, 'now' | 'credentialPattern' | 'catalog'>): AuditEvidence {
  const now = options.now ?? (() => new Date());
  return {
    traceId: call.traceId ?? randomUUID(),
    occurredAt: now().toISOString(),
    tool: auditedToolName(call.tool, credentialTest(options.credentialPattern)),
    capability: options.catalog.get(call.tool)?.capability ?? null,
    surface: call.surface,
    principalRef: null,
    accountRef: null,
    principalKind: null,
    clientName: null,
    authorization: 'not_required',
    inputSummary: summarizeInput(call.input, { ...(options.credentialPattern && { credentialPattern: options.credentialPattern }) }),
    outcomeCode: 'SUCCESS',
    resultingIds: [],
    durationMs: 0,
  };
}

/** The refusal of the call's rate limit, or null when it may go on (or none applies). */
async function rateLimitRefusal(
  rateLimit: PipelineOptions<ToolContract>['rateLimit'],
  call: Invocation & { principal: Principal | null },
  traceId: string,
): Promise<FailureDetails | null> {
  if (!rateLimit) return null;
  const keyOf = rateLimit.keyOf ?? principalRateLimitKey;
  const key = keyOf(call.principal, { surface: call.surface, ...(call.callerAddress !== undefined && { callerAddress: call.callerAddress }) });
  if (key === null) return null;
  const decision = await rateLimit.limiter.consume(key, { traceId });
  return decision.allowed ? null : rateLimitFailure(decision, 'Too many tool calls');
}

/**
 * The refusal of a call to a site-only catalog (`CatalogOptions.siteOnly`)
 * that is not the person on the site's own page: any surface but `ui`, or a
 * principal that is not a browser `session` (none, a token, an OAuth client),
 * is FORBIDDEN whatever the tool. Records `authorization: "denied"`.
 */
function siteOnlyRefusal(catalog: Catalog, call: Invocation & { principal: Principal | null }, evidence: AuditEvidence): FailureDetails | null {
  if (!catalog.siteOnly || (call.surface === 'ui' && call.principal?.kind === 'session')) return null;
  evidence.authorization = 'denied';
  return { code: 'FORBIDDEN', message: 'Only the person can do this, on the site.', nextAction: "Ask the person to do this on the site's own page." };
}

/**
 * The refusal of the call by who calls, or null when it may run: a non-read
 * tool needs a principal (UNAUTHENTICATED), a credential's scope must cover
 * the tool's effect (FORBIDDEN), and the app's own `authorize` may refuse.
 * Records the decision in `evidence.authorization`.
 */
function authorizationRefusal(
  options: Pick<PipelineOptions<ToolContract>, 'authorize' | 'howToConnect' | 'runsForAnyone'>,
  tool: ToolContract,
  call: Invocation & { principal: Principal | null },
  evidence: AuditEvidence,
): FailureDetails | null {
  const needsPrincipal = options.runsForAnyone ? !options.runsForAnyone(tool) : requiresPrincipal(tool.effect);
  if (!needsPrincipal && !options.authorize) return null;
  evidence.authorization = 'allowed';
  let refusal: FailureDetails | null = null;
  if (needsPrincipal && !call.principal) {
    refusal = {
      code: 'UNAUTHENTICATED',
      message: 'This tool needs to know who is calling.',
      nextAction:
        options.howToConnect?.({ surface: call.surface, ...(call.siteUrl !== undefined && { siteUrl: call.siteUrl }) }) ??
        'Connect as a person of this site, then call again.',
    };
  } else if (call.principal?.scope && !call.principal.scope.includes(tool.effect)) {
    refusal = outOfScope(tool.effect);
  } else {
    refusal = options.authorize?.(tool, call.principal) ?? null;
  }
  if (refusal) evidence.authorization = 'denied';
  return refusal;
}

/**
 * The envelope an outcome answers (stateVersion 0, set by the caller) and
 * the evidence it adds: data projected through the output schema, guidance
 * limited to the catalog's names. Used for the operation's answer and for the
 * answer a commit keeps with its effects (`completeWithin`).
 *
 * @throws OutputSchemaMismatch when the data does not match the output schema
 *   (logged with its issues): the call's effects roll back and it answers INTERNAL_ERROR.
 */
function resultOf(catalog: Catalog, logger: Logger, tool: ToolContract, outcome: ToolOutcome<unknown>, traceId: string): StoredCommitAnswer {
  const evidence = withoutUndefined(outcome.evidence ?? {});
  if (!outcome.ok) return { result: fail(outcome.failure, 0), evidence };
  const projected = tool.output.safeParse(outcome.data);
  if (!projected.success) {
    logger.error({ traceId, tool: tool.name, issues: projected.error.issues }, 'tool output does not match its schema');
    throw new OutputSchemaMismatch(tool.name);
  }
  const guidance = outcome.guidance ?? {};
  const unknownActions = (guidance.availableActions ?? []).filter((name) => !catalog.has(name));
  if (unknownActions.length > 0) {
    logger.error({ traceId, tool: tool.name, unknownActions }, 'guidance names tools outside the catalog');
    guidance.availableActions = (guidance.availableActions ?? []).filter((name) => catalog.has(name));
  }
  return { result: succeed(projected.data, guidance, { stateVersion: 0 }), evidence };
}

/** Whose idempotency keys a call without a principal claims (idempotency.ts scopes a key to its owner and tool). */
const ANONYMOUS_KEY_OWNER = 'anonymous';

/** Why a pipeline whose catalog holds a commit tool cannot be built without `idempotency`. */
const NO_LEDGER = 'A catalog with commit tools, or write tools that take idempotency_key, needs the pipeline option `idempotency` (createIdempotencyLedger).';

/** Adds the operation's evidence to the call's, and hands the answer on. */
function withEvidence<A extends StoredCommitAnswer>(answer: A, evidence: AuditEvidence): A {
  Object.assign(evidence, answer.evidence);
  return answer;
}

/**
 * Who acted for whom, as audit evidence keeps it: the principal's credential
 * ref, its account's ref, its kind, and the client's name. A session on the
 * site's own page (`webmcp`, `ui`) is the person's browser: no client name.
 */
function actingFor(principal: Principal | null, surface: Surface): Pick<AuditEvidence, 'principalRef' | 'accountRef' | 'principalKind' | 'clientName'> {
  if (!principal) return { principalRef: null, accountRef: null, principalKind: null, clientName: null };
  const inOwnPage = principal.kind === 'session' && surface !== 'mcp';
  return {
    principalRef: principal.ref,
    accountRef: principal.account?.ref ?? null,
    principalKind: principal.kind,
    clientName: inOwnPage ? null : (principal.clientName ?? null),
  };
}

const PLAUSIBLE_TOOL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

// The name comes from the caller; a NUL or other odd character in it would make
// the audit insert itself fail on PostgreSQL, and the call would leave no evidence.
function auditedToolName(name: string, isCredential: (text: string) => boolean): string {
  // A token sent as the tool's name is a credential like any other: never kept.
  if (isCredential(name)) return '[redacted]';
  return PLAUSIBLE_TOOL_NAME.test(name) ? name : '[invalid tool name]';
}

/** FORBIDDEN for a credential whose scope does not cover the tool's effect (docs/identity.md, "Scopes"). */
function outOfScope(effect: EffectClass): FailureDetails {
  return {
    code: 'FORBIDDEN',
    message:
      effect === 'commit'
        ? 'The access this client was given does not cover submitting what the person confirmed.'
        : 'The access this client was given does not cover this tool.',
    nextAction:
      effect === 'commit'
        ? 'Ask the person to give this client access that covers submitting (a new token with that scope), then call again with the same idempotency key.'
        : 'Ask the person to give this client access that covers this tool (a new token with a wider scope, or approving the client again), then call again.',
  };
}

/** INTERNAL_ERROR: a fault in the site's own code stopped the call; the operators find it by the call's trace id (the result's `_meta` on MCP). */
function internalError(stateVersion: number) {
  return fail(
    {
      code: 'INTERNAL_ERROR',
      message: 'The site failed on this call; nothing was changed.',
      nextAction:
        "Do not repeat this call: it fails the same way until the site is fixed. Tell the person the site failed; its operators can find this failure by the call's trace id.",
    },
    stateVersion,
  );
}

function temporaryFailure(stateVersion: number) {
  return fail(
    { code: 'TEMPORARY_FAILURE', message: 'The service could not complete this call.', nextAction: 'Try the same call again in a moment.' },
    stateVersion,
  );
}

function shuttingDown(stateVersion: number) {
  return fail(
    {
      code: 'TEMPORARY_FAILURE',
      message: 'The service is restarting and did not complete this call.',
      nextAction: 'Try the same call again in a moment.',
    },
    stateVersion,
  );
}

function withoutUndefined(evidence: ToolEvidence): StoredCommitAnswer['evidence'] {
  return Object.fromEntries(Object.entries(evidence).filter(([, value]) => value !== undefined)) as StoredCommitAnswer['evidence'];
}
