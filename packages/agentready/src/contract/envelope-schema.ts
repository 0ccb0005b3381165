/**
 * @module The zod schema of the result envelope (envelope.ts), for the tools'
 * published `outputSchema` and for tests that check an answer against it.
 */
import { z } from 'zod';
import { ERROR_CODE_LIST } from './errors.ts';

const guidanceSchema = z.object({
  availableActions: z.array(z.string()),
  currentTarget: z.object({ kind: z.string(), id: z.string() }).optional(),
  requiresHumanConfirmation: z.boolean(),
  confirmationUrl: z.string().optional(),
});

const changeValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** Schema of the failure branch, the same for every tool. */
export const toolFailureSchema = z.object({
  ok: z.literal(false),
  code: z.enum(ERROR_CODE_LIST),
  message: z.string(),
  retryable: z.boolean(),
  nextAction: z.string().optional(),
  field: z.string().optional(),
  candidates: z.array(z.object({ id: z.string(), label: z.string() })).optional(),
  /** With CONFLICT: what changed since the caller's view, as it was and as it is now. */
  changes: z.array(z.object({ field: z.string(), was: changeValue, now: changeValue })).optional(),
  /** Whole seconds before the same call may succeed (RATE_LIMITED, IN_PROGRESS; TEMPORARY_FAILURE may say it too). */
  retryAfterSeconds: z.number().int().nonnegative().optional(),
  uiUpdated: z.literal(false),
  stateVersion: z.number().int().nonnegative(),
  /** Present only on a stored answer replayed for a repeated idempotency key. */
  replayed: z.literal(true).optional(),
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
      replayed: z.literal(true).optional(),
    }),
    toolFailureSchema,
  ]);
}
