/**
 * @module agentready/runtime: the invocation pipeline every surface calls,
 * what an unexpected exception answers (for a site's own routes too),
 * audit evidence and what people read back from it (activity, journeys),
 * idempotency keys, drafts and confirmation tokens, rate limits, and a site
 * process's sweep and graceful shutdown (server only).
 */
export { createInvocationPipeline, principalRateLimitKey } from './pipeline.ts';
export type { InvocationPipeline, Invocation, PipelineOptions, VerifiedAccessToken } from './pipeline.ts';
export { unexpectedErrorCode } from './unexpected-errors.ts';
export { createDatabaseAuditSink, sweepAuditRecords, auditTableBytes } from './audit-log.ts';
export type { AuditEvidence, AuditSink } from './audit-log.ts';
export {
  listActivity,
  listActivityClients,
  findJourney,
  formatActivityCursor,
  parseActivityCursor,
  readActivityPage,
  activityPageRequestOf,
  ACTIVITY_PAGE_SIZE,
} from './activity.ts';
export type { ActivityEntry, ActivityPage, ActivityClient, ActivityClientShown, ActivityPageRequest, ActivityPageRead, JourneyEntry } from './activity.ts';
export { createCallDrain } from './call-drain.ts';
export type { CallDrain, DrainReport } from './call-drain.ts';
export { drainCallsOnDatabase, superviseSiteProcess } from './site-shutdown.ts';
export type { SiteProcessParts } from './site-shutdown.ts';
export { createRateLimiter, databaseRateLimitStore, rateLimitFailure } from './rate-limits.ts';
export type { RateLimiter, RateLimiterOptions, RateLimitStore } from './rate-limits.ts';
export { createSignInLimits } from './sign-in-limits.ts';
export type { SignInAttempt, SignInLimit, SignInLimits } from './sign-in-limits.ts';
export { idempotencyKeySchema, requestFingerprint, idempotencyKeyHash, createIdempotencyLedger } from './idempotency.ts';
export type { IdempotencyLedger } from './idempotency.ts';
export { createDraftStore, draftVersionConflict, canonicalJson } from './drafts.ts';
export type { Draft, DraftStore } from './drafts.ts';
export { createConfirmationStore } from './confirmations.ts';
export type { ConfirmationStore } from './confirmations.ts';
export { readTraceArguments } from './trace-arguments.ts';
export { runTraceCommand } from './trace-command.ts';
export type { CommandOutput } from './trace-command.ts';
export { createSiteLogger } from './site-logger.ts';
export type { SiteLoggerOptions } from './site-logger.ts';
