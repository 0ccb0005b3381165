/**
 * @module What the site's own commit steps (site-commits.ts) share: their
 * inputs' shapes, the confirmation they answer, and how a domain result
 * becomes their outcome with the evidence of the draft and confirmation used.
 */
import type { ToolOutcome } from 'agentready';
import { z } from 'zod';
import type { DomainResult } from '../domain/domain-result.ts';

/** A public ID the page sends (an event's, a registration's). */
export const publicIdInput = z.string().min(1).max(120);
/** A draft's ID. */
export const draftIdInput = z.string().min(1).max(80);
/** A draft's version. */
export const draftVersionInput = z.number().int().positive();
/** A confirmation token the person's click minted. */
export const confirmationTokenInput = z.string().min(1).max(200);

/** What an approval answers: the token for the draft version the person approved, and until when it works. */
export const confirmationOutput = z.object({
  confirmationToken: z.string(),
  draft: z.object({ id: z.string(), version: z.number(), hash: z.string() }),
  expiresAt: z.string(),
});

type DraftEvidence = { draft: { id: string; version: number; hash: string }; confirmationId: string };

/**
 * A commit's success outcome: its data, and the evidence of the draft and
 * confirmation it used and of what it touched (`touched`: public IDs, the
 * registration and its event, which the person's activity page links to).
 */
export function committed<T extends { evidence: DraftEvidence }>(value: T, touched: string[] = []) {
  const { evidence, ...data } = value;
  return { ok: true as const, data, evidence: { draft: evidence.draft, confirmationId: evidence.confirmationId, resultingIds: touched } };
}

/** An approval's outcome: the minted token, or the domain's refusal; `touched` the public IDs it was about (the event, the registration). */
export function confirmationOutcome(
  result: DomainResult<{ confirmationToken: string; confirmationId: string; draft: { id: string; version: number; hash: string }; expiresAt: string }>,
  touched: string[] = [],
): ToolOutcome<z.input<typeof confirmationOutput>> {
  if (!result.ok) return refusalOutcome(result);
  return { ok: true, data: result.value, evidence: { draft: result.value.draft, confirmationId: result.value.confirmationId, resultingIds: touched } };
}

/** A domain refusal as a commit step's failure (its internal reason left out). */
export function refusalOutcome(failure: Exclude<DomainResult<unknown>, { ok: true }>) {
  const { ok: _ok, reason: _reason, ...details } = failure;
  return { ok: false as const, failure: details };
}
