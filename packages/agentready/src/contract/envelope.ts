/**
 * @module The result envelope every tool returns on every surface
 * (docs/architecture.md, "The envelope"), its builders and its zod schema.
 */
import { z } from 'zod';
import { ERROR_CODE_LIST, isRetryable, type ErrorCode } from './errors.ts';

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
  uiUpdated: false;
  stateVersion: number;
};

/** What every tool answers on every surface (docs/architecture.md, "The envelope"). */
export type ToolResult<T, Action extends string = string> = ToolSuccess<T, Action> | ToolFailure;

/** The parts of a failure an operation or a check decides; the rest is filled in. */
export type FailureDetails = {
  code: ErrorCode;
  message: string;
  nextAction?: string;
  field?: string;
  candidates?: Candidate[];
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
 * and `uiUpdated` is always false.
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
  return failure;
}

const guidanceSchema = z.object({
  availableActions: z.array(z.string()),
  currentTarget: z.object({ kind: z.string(), id: z.string() }).optional(),
  requiresHumanConfirmation: z.boolean(),
  confirmationUrl: z.string().optional(),
});

/** Schema of the failure branch, the same for every tool. */
export const toolFailureSchema = z.object({
  ok: z.literal(false),
  code: z.enum(ERROR_CODE_LIST),
  message: z.string(),
  retryable: z.boolean(),
  nextAction: z.string().optional(),
  field: z.string().optional(),
  candidates: z.array(z.object({ id: z.string(), label: z.string() })).optional(),
  uiUpdated: z.literal(false),
  stateVersion: z.number().int().nonnegative(),
});

/**
 * The schema of a tool's whole result: both branches, so that error results
 * validate too (the published outputSchema accepts both branches).
 *
 * @param data the tool's output (allowlist) schema.
 */
export function envelopeSchema<D extends z.ZodType>(data: D) {
  return z.discriminatedUnion('ok', [
    z.object({
      ok: z.literal(true),
      code: z.literal('SUCCESS'),
      data,
      guidance: guidanceSchema,
      uiUpdated: z.boolean(),
      stateVersion: z.number().int().nonnegative(),
    }),
    toolFailureSchema,
  ]);
}
