/**
 * @module The result envelope every tool returns on every surface
 * (docs/architecture.md, "The envelope"), its builders, and a reader of an
 * envelope received as JSON. No zod: the page imports it (the zod schema is
 * in envelope-schema.ts).
 */
import { ERROR_CODES, isRetryable, type ErrorCode } from './errors.ts';

/** What the agent may do next, and whether a person must finish. */
export type Guidance<Action extends string = string> = {
  /** Only names from the approved catalog that are valid from here. */
  availableActions: Action[];
  /** The opaque ID the next call must use. */
  currentTarget?: { kind: string; id: string };
  requiresHumanConfirmation: boolean;
  /** Where the person finishes (a path on the site, or an absolute URL on MCP). */
  confirmationUrl?: string;
};

/** A choice offered with SELECTION_REQUIRED. */
export type Candidate = { id: string; label: string };

/** A tool call that did what was asked: `data` (projected through the output allowlist) and what may come next. */
export type ToolSuccess<T, Action extends string = string> = {
  ok: true;
  code: 'SUCCESS';
  data: T;
  guidance: Guidance<Action>;
  uiUpdated: boolean;
  stateVersion: number;
  /**
   * Present (true) only when this answer is replayed: a commit sent again with
   * the idempotency key of an earlier call with the same request gets that
   * call's stored answer, and nothing was done again (docs/mutation-safety.md).
   */
  replayed?: true;
};

/**
 * A tool call that did nothing: a code from the closed set, a short safe
 * sentence, whether the same call may succeed later, and what to do instead.
 */
export type ToolFailure = {
  ok: false;
  code: ErrorCode;
  message: string;
  retryable: boolean;
  nextAction?: string;
  field?: string;
  candidates?: Candidate[];
  /** With CONFLICT: what changed since the caller's view (a price, an availability), each as it was and as it is now. */
  changes?: Change[];
  /**
   * Whole seconds to wait before the same call may succeed: set with
   * RATE_LIMITED (when the window ends) and IN_PROGRESS (when the running
   * call's lease ends), allowed with TEMPORARY_FAILURE.
   */
  retryAfterSeconds?: number;
  uiUpdated: false;
  stateVersion: number;
  /** Present (true) only when this stored refusal is replayed for a repeated idempotency key (see {@link ToolSuccess}). */
  replayed?: true;
};

/**
 * One fact that changed under the caller (a CONFLICT's `changes`): the
 * field's name in the caller's terms (`price`, `availability`), its value as
 * the caller last saw it and its value now. A widget reads these to show what
 * changed without parsing the message.
 */
export type Change = { field: string; was: string | number | boolean | null; now: string | number | boolean | null };

/** What every tool answers on every surface (docs/architecture.md, "The envelope"). */
export type ToolResult<T, Action extends string = string> = ToolSuccess<T, Action> | ToolFailure;

/** The parts of a failure an operation or a check decides; the rest is filled in. */
export type FailureDetails = {
  code: ErrorCode;
  message: string;
  nextAction?: string;
  field?: string;
  candidates?: Candidate[];
  /** What changed since the caller's view; kept with CONFLICT only. */
  changes?: Change[];
  /** Whole seconds before a retry may succeed (RATE_LIMITED, IN_PROGRESS, TEMPORARY_FAILURE); other codes drop it. */
  retryAfterSeconds?: number;
};

/**
 * Builds a success envelope.
 *
 * @param data what answers the question and what the next step needs (already projected).
 * @param guidance next actions; defaults to none and no confirmation.
 * @param state `stateVersion` of the principal and whether the page re-rendered (default false).
 */
export function succeed<T, Action extends string = string>(
  data: T,
  guidance: Partial<Guidance<Action>> = {},
  state: { stateVersion: number; uiUpdated?: boolean },
): ToolSuccess<T, Action> {
  const full: Guidance<Action> = {
    availableActions: guidance.availableActions ?? [],
    requiresHumanConfirmation: guidance.requiresHumanConfirmation ?? false,
  };
  if (guidance.currentTarget) full.currentTarget = guidance.currentTarget;
  if (guidance.confirmationUrl) full.confirmationUrl = guidance.confirmationUrl;
  return { ok: true, code: 'SUCCESS', data, guidance: full, uiUpdated: state.uiUpdated ?? false, stateVersion: state.stateVersion };
}

/**
 * Builds a failure envelope; `retryable` comes from the code (docs/architecture.md, "The envelope"),
 * and `uiUpdated` is always false. `retryAfterSeconds` is kept only for
 * RATE_LIMITED, IN_PROGRESS and TEMPORARY_FAILURE, rounded up to whole seconds, at least 1.
 */
export function fail(details: FailureDetails, stateVersion: number): ToolFailure {
  const failure: ToolFailure = {
    ok: false,
    code: details.code,
    message: details.message,
    retryable: isRetryable(details.code),
    uiUpdated: false,
    stateVersion,
  };
  if (details.nextAction !== undefined) failure.nextAction = details.nextAction;
  if (details.field !== undefined) failure.field = details.field;
  if (details.candidates !== undefined) failure.candidates = details.candidates;
  if (details.changes !== undefined && details.code === 'CONFLICT') failure.changes = details.changes;
  if (details.retryAfterSeconds !== undefined && RETRY_AFTER_CODES.has(details.code)) {
    failure.retryAfterSeconds = Math.max(1, Math.ceil(details.retryAfterSeconds));
  }
  return failure;
}

/** The codes a failure may say when to retry with (docs/architecture.md, "The envelope"). */
const RETRY_AFTER_CODES: ReadonlySet<ErrorCode> = new Set(['RATE_LIMITED', 'IN_PROGRESS', 'TEMPORARY_FAILURE']);

/**
 * Marks `result` as replayed (a stored answer given again for a repeated
 * idempotency key), with the principal's current `stateVersion`.
 *
 * @returns a copy; `result` is not changed.
 */
export function asReplayed<T>(result: ToolResult<T>, stateVersion: number): ToolResult<T> {
  return { ...result, stateVersion, replayed: true };
}

/**
 * Reads a tool result received as JSON (a page reading `POST /api/tools/:name`):
 * the envelope when `value` is one, as `envelopeSchema(z.unknown())` would
 * parse it (envelope-schema.ts: both branches checked, `data` present and
 * taken as it is, keys the envelope does not name left out), else null. Written without zod
 * so that a page need not ship it.
 */
export function readToolResult(value: unknown): ToolResult<unknown> | null {
  if (!isRecord(value)) return null;
  const { stateVersion } = value;
  if (typeof stateVersion !== 'number' || !Number.isSafeInteger(stateVersion) || stateVersion < 0) return null;
  if (value['ok'] === true) return readSuccess(value, stateVersion);
  if (value['ok'] === false) return readFailure(value, stateVersion);
  return null;
}

function readSuccess(value: Record<string, unknown>, stateVersion: number): ToolSuccess<unknown> | null {
  const guidance = readGuidance(value['guidance']);
  if (value['code'] !== 'SUCCESS' || !Object.hasOwn(value, 'data') || guidance === null || typeof value['uiUpdated'] !== 'boolean') return null;
  if (!isReplayFlag(value['replayed'])) return null;
  const success: ToolSuccess<unknown> = { ok: true, code: 'SUCCESS', data: value['data'], guidance, uiUpdated: value['uiUpdated'], stateVersion };
  if (value['replayed'] === true) success.replayed = true;
  return success;
}

/** `replayed` is absent or true (envelope.ts, {@link ToolSuccess}). */
function isReplayFlag(value: unknown): boolean {
  return value === undefined || value === true;
}

function readGuidance(value: unknown): Guidance | null {
  if (!isRecord(value)) return null;
  const { availableActions, currentTarget, requiresHumanConfirmation, confirmationUrl } = value;
  if (!Array.isArray(availableActions) || !availableActions.every((action) => typeof action === 'string')) return null;
  if (typeof requiresHumanConfirmation !== 'boolean' || !isOptional(confirmationUrl, 'string')) return null;
  const target = currentTarget === undefined ? undefined : readStringPair(currentTarget, 'kind', 'id');
  if (target === null) return null;
  const guidance: Guidance = { availableActions: [...availableActions], requiresHumanConfirmation };
  if (target !== undefined) guidance.currentTarget = { kind: target[0], id: target[1] };
  if (confirmationUrl !== undefined) guidance.confirmationUrl = confirmationUrl as string;
  return guidance;
}

function readFailure(value: Record<string, unknown>, stateVersion: number): ToolFailure | null {
  const { code, message, retryable, nextAction, field, candidates, changes, retryAfterSeconds, uiUpdated } = value;
  if (typeof code !== 'string' || !Object.hasOwn(ERROR_CODES, code) || typeof message !== 'string' || typeof retryable !== 'boolean') return null;
  if (!isOptional(nextAction, 'string') || !isOptional(field, 'string') || uiUpdated !== false || !isReplayFlag(value['replayed'])) return null;
  if (retryAfterSeconds !== undefined && !(Number.isSafeInteger(retryAfterSeconds) && (retryAfterSeconds as number) >= 0)) return null;
  const choices = candidates === undefined ? undefined : readCandidates(candidates);
  if (choices === null) return null;
  if (changes !== undefined && !(Array.isArray(changes) && changes.every(isChange))) return null;
  const failure: ToolFailure = { ok: false, code: code as ErrorCode, message, retryable, uiUpdated: false, stateVersion };
  // Each optional part only when present (`replayed` is then true).
  const optional = { nextAction, field, candidates: choices, changes, retryAfterSeconds, replayed: value['replayed'] };
  for (const [key, part] of Object.entries(optional)) if (part !== undefined) Object.assign(failure, { [key]: part });
  return failure;
}

/** Whether `item` is one of a CONFLICT's `changes`: a field name with a scalar (or null) `was` and `now`. */
function isChange(item: unknown): item is Change {
  return isRecord(item) && typeof item['field'] === 'string' && [item['was'], item['now']].every((side) => side === null || typeof side !== 'object');
}

function readCandidates(value: unknown): Candidate[] | null {
  if (!Array.isArray(value)) return null;
  const candidates: Candidate[] = [];
  for (const item of value) {
    const pair = readStringPair(item, 'id', 'label');
    if (pair === null) return null;
    candidates.push({ id: pair[0], label: pair[1] });
  }
  return candidates;
}

/** `[value[first], value[second]]` when both are strings, else null. */
function readStringPair(value: unknown, first: string, second: string): [string, string] | null {
  if (!isRecord(value)) return null;
  const [a, b] = [value[first], value[second]];
  return typeof a === 'string' && typeof b === 'string' ? [a, b] : null;
}

function isOptional(value: unknown, type: 'string'): boolean {
  return value === undefined || typeof value === type;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
