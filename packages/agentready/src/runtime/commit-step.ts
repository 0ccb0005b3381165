/**
 * @module The pipeline's commit step (docs/mutation-safety.md): a `commit`
 * tool's call runs under a claim on its idempotency key, so that a retried,
 * duplicated or concurrent call never acts twice, and a call that crashed
 * after its claim is taken over once its lease ends.
 */
import type { Kysely } from 'kysely';
import { asReplayed, fail, type FailureDetails, type ToolResult } from '../contract/envelope.ts';
import type { ErrorCode } from '../contract/errors.ts';
import type { CommitContext } from '../contract/tool-call.ts';
import type { AuditEvidence } from './audit-log.ts';
import { IDEMPOTENCY_KEY_PATTERN, idempotencyKeyHash, LeaseLostError, type IdempotencyClaim, type IdempotencyLedger } from './idempotency.ts';

/** An operation's outcome, as the commit step stores it (the pipeline's OperationOutcome). */
export type StorableOutcome = { ok: boolean };

/** The answer kept for a key: the envelope (its `stateVersion` is replaced when replayed) and the evidence of the call that made it. */
export type StoredCommitAnswer = {
  result: ToolResult<unknown>;
  evidence: Partial<Pick<AuditEvidence, 'ruleVersion' | 'metadataVersion' | 'draft' | 'confirmationId' | 'resultingIds'>>;
};

/**
 * Outcomes that are not kept for a key: nothing happened and a corrected or
 * later call with the same key must run (validation, a missing or stale
 * confirmation, who may call, failures of the service, and a fault in the
 * site's own code, INTERNAL_ERROR, so that the fixed site runs it). Every other
 * outcome, SUCCESS and business refusals such as CONFLICT or NOT_FOUND, is
 * kept and replayed.
 */
const NOT_KEPT: ReadonlySet<ErrorCode> = new Set([
  'INVALID_INPUT',
  'CONFIRMATION_REQUIRED',
  'UNAUTHENTICATED',
  'SESSION_EXPIRED',
  'FORBIDDEN',
  'RATE_LIMITED',
  'IN_PROGRESS',
  'IDEMPOTENCY_KEY_REUSED',
  'TEMPORARY_FAILURE',
  'INTERNAL_ERROR',
]);

/** Whether an answer with `code` is kept for its idempotency key and replayed (see {@link NOT_KEPT}). */
export function isKeptForKey(code: ErrorCode | 'SUCCESS'): boolean {
  return code === 'SUCCESS' || !NOT_KEPT.has(code);
}

/** How a commit call runs under its key: the pipeline's callbacks. */
export type CommitRun = {
  ledger: IdempotencyLedger;
  /** Whose key: the principal's internal id. */
  ownerId: string;
  tool: string;
  /** The validated input, `idempotency_key` included. */
  input: Record<string, unknown>;
  evidence: AuditEvidence;
  stateVersion: () => Promise<number>;
  /** Runs the operation with the commit context; answers its envelope and the evidence it added. */
  operate(commit: CommitContext): Promise<StoredCommitAnswer>;
  /** Turns an outcome into the envelope the call answers (projection, guidance), with stateVersion 0; throws when its data does not match the output schema. */
  resultOf(outcome: StorableOutcome): { result: ToolResult<unknown>; evidence: StoredCommitAnswer['evidence'] };
  /**
   * Runs the operation and the key's settling as one unit of database work
   * (the pipeline's call transaction, AuditSink.withEffects). Default: as they come.
   */
  within?(work: () => Promise<StoredCommitAnswer>): Promise<StoredCommitAnswer>;
};

/**
 * Runs one commit call under its idempotency key (scope: principal, tool, key;
 * fingerprint: the canonical JSON of the input without the key):
 * - first call: claims the key, runs the operation; its answer is kept unless
 *   {@link isKeptForKey} says otherwise, in which case the claim is released;
 *   a call whose claim was taken over meanwhile (stuck past its lease) keeps
 *   nothing and throws LeaseLostError (the pipeline: TEMPORARY_FAILURE);
 * - same key and request, done: the kept answer, `replayed: true` (evidence `replayed`);
 * - same key and request, still running: IN_PROGRESS with `retryAfterSeconds` (when its lease ends);
 * - same key, another request: IDEMPOTENCY_KEY_REUSED;
 * - a key outside 8–255 printable characters: INVALID_INPUT, `field: "idempotency_key"`.
 *
 * @returns the envelope; throws what the ledger throws (a database failure) and
 *   what the operation throws, and LeaseLostError for a call whose claim was taken over.
 */
export async function runCommitUnderKey(run: CommitRun): Promise<ToolResult<unknown>> {
  const key = run.input['idempotency_key'];
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key)) return fail(badKey(), await run.stateVersion());
  run.evidence.idempotencyKeyHash = idempotencyKeyHash(key);
  const { idempotency_key: _key, ...request } = run.input;
  const claimed = await run.ledger.claim({ ownerId: run.ownerId, operation: run.tool, key }, request);
  switch (claimed.kind) {
    case 'replay': {
      const stored = claimed.answer as StoredCommitAnswer;
      Object.assign(run.evidence, stored.evidence, { replayed: true });
      return asReplayed(stored.result, await run.stateVersion());
    }
    case 'reused':
      return fail(keyReused(), await run.stateVersion());
    case 'in_progress':
      return fail(inProgress(claimed.retryAfterSeconds), await run.stateVersion());
    case 'claimed':
      return runClaimed(run, claimed.claim);
  }
}

/**
 * Runs the operation under `claim` and settles the key with its answer, both
 * inside `run.within` when given (the call's one transaction: the answer is
 * then kept, or the key released, together with the effects and the call's
 * audit record).
 *
 * @throws what the operation throws (the key released first), and
 *   LeaseLostError when the operation ended without completeWithin and the
 *   claim no longer holds the key: another call took the work over while
 *   this one was stuck, so this call's refusal (its token already used by
 *   the other, say) is not the key's answer; inside `run.within` its effects
 *   then roll back. The pipeline answers TEMPORARY_FAILURE, and a retry gets
 *   the other call's answer.
 */
async function runClaimed(run: CommitRun, claim: IdempotencyClaim): Promise<ToolResult<unknown>> {
  let storedWithin = false;
  const settled = async (): Promise<StoredCommitAnswer> => {
    const answer = await run.operate({
      takeover: claim.takeover,
      async completeWithin(trx, outcome) {
        await claim.completeWithin(trx as Kysely<any>, run.resultOf(outcome));
        storedWithin = true;
      },
    });
    // Conditional on the claim: a no-op when completeWithin already kept the answer with the effects.
    const held = isKeptForKey(answer.result.code) ? await claim.complete(answer) : await claim.release();
    if (!held && !storedWithin) throw new LeaseLostError();
    return answer;
  };
  try {
    return (await (run.within ? run.within(settled) : settled())).result;
  } catch (error) {
    // Nothing was kept (a completeWithin in a rolled-back transaction is undone with it): a retry runs again.
    await claim.release();
    throw error;
  }
}

function badKey(): FailureDetails {
  return {
    code: 'INVALID_INPUT',
    field: 'idempotency_key',
    message: 'The idempotency key must be 8 to 255 printable characters.',
    nextAction: 'Send a new unique key, e.g. a UUID, and send that same key again only when retrying this same call.',
  };
}

function keyReused(): FailureDetails {
  return {
    code: 'IDEMPOTENCY_KEY_REUSED',
    field: 'idempotency_key',
    message: 'This idempotency key was already used for a different request.',
    nextAction: 'Use a new key for a new request; send the same key only to retry exactly the same request.',
  };
}

function inProgress(retryAfterSeconds: number): FailureDetails {
  return {
    code: 'IN_PROGRESS',
    message: 'The first call with this idempotency key is still running.',
    nextAction: 'Wait, then send the same call with the same key to get its answer.',
    retryAfterSeconds,
  };
}
