/**
 * @module agentready/runtime: the invocation pipeline, audit evidence, rate limits, idempotency keys, drafts and confirmation tokens (server only).
 */
export { createInvocationPipeline, principalRateLimitKey } from './pipeline.ts';
export type { InvocationPipeline, Invocation, PipelineOptions, PrincipalLookup, RateLimitKeyOf, VerifiedAccessToken } from './pipeline.ts';
export { createDatabaseAuditSink, sweepAuditRecords, auditTableBytes, AUDIT_SWEEP_BATCH_SIZE } from './audit-log.ts';
export type { AuditEvidence, AuditSink, AuditSweepOptions } from './audit-log.ts';
export { listActivity, listActivityClients, findJourney, isTraceId, formatActivityCursor, parseActivityCursor } from './activity.ts';
export type { ActivityEntry, JourneyEntry, ActivityCursor, ActivityQuery, ActivityPage, ActivityClient } from './activity.ts';
export { summarizeInput } from './input-summary.ts';
export type { InputSummary, InputSummaryOptions } from './input-summary.ts';
export { createCallDrain } from './call-drain.ts';
export type { CallDrain, DrainOptions, DrainReport } from './call-drain.ts';
export { ANSWER_DELIVERY_MS, drainCallsOnDatabase, superviseSiteProcess, SWEEP_INTERVAL_MS } from './site-shutdown.ts';
export type { SiteListener, SiteProcessParts } from './site-shutdown.ts';
export { createRateLimiter, databaseRateLimitStore, rateLimitFailure } from './rate-limits.ts';
export type { RateLimiter, RateLimiterOptions, RateLimitDecision, RateLimitStore, WhenStoreFails } from './rate-limits.ts';
export { createSignInLimits } from './sign-in-limits.ts';
export type { SignInAttempt, SignInLimit, SignInLimits, SignInLimitsOptions } from './sign-in-limits.ts';
export {
  IDEMPOTENCY_KEY_PATTERN,
  idempotencyKeySchema,
  requestFingerprint,
  idempotencyKeyHash,
  leaseHolds,
  secondsUntilLeaseEnds,
  LeaseLostError,
  createIdempotencyLedger,
  runIdempotently,
} from './idempotency.ts';
export type { IdempotencyScope, IdempotencyClaim, ClaimOutcome, IdempotencyLedgerOptions, IdempotencyLedger, IdempotentRun } from './idempotency.ts';
export { createDraftStore, draftContentHash, changedDraftFields, draftVersionConflict, canonicalJson } from './drafts.ts';
export type { Draft, DraftStore, DraftStoreOptions, DraftSaveOutcome } from './drafts.ts';
export { createConfirmationStore, CONFIRMATION_TOKEN_LIFETIME_MS } from './confirmations.ts';
export type { ConfirmationStore, ConfirmationStoreOptions, MintedConfirmation, ConsumedConfirmation, MintOutcome, ConsumeOutcome } from './confirmations.ts';
export { runCommitUnderKey, isKeptForKey } from './commit-step.ts';
export type { StoredCommitAnswer } from './commit-step.ts';
export { readTraceArguments } from './trace-arguments.ts';
export type { TraceArguments } from './trace-arguments.ts';
export { runTraceCommand, journeyStepLines } from './trace-command.ts';
export type { CommandOutput, TraceCommandOptions } from './trace-command.ts';
