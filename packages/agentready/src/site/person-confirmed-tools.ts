/**
 * @module A commit tool that declares `confirm` becomes two tools of the
 * site: the step agents are offered, which stores the request as a draft and
 * answers where the person confirms (effect `prepare`: nothing is committed),
 * and the person's own step, which runs the declared handler once, from the
 * stored request, when the person clicks Confirm on the site's confirmation
 * page (a site-only `write` under an idempotency key made from the draft
 * version, so a second click or a retried request replays the first answer).
 *
 * A draft prepared by a caller with a principal belongs to that principal; a
 * draft prepared by a caller without one (an MCP client with no account)
 * belongs to its confirmation link: whoever opens the link confirms it
 * (docs/site.md, "Who confirms").
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { defineToolFor, type ToolContract } from '../contract/define-tool.ts';
import type { Principal, ToolCallContext } from '../contract/tool-call.ts';
import { idempotencyKeySchema } from '../runtime/idempotency.ts';
import { type Draft, type DraftStore, draftContentHash } from '../runtime/drafts.ts';

/** Who owns a draft prepared by a caller without a principal: its link. */
export const LINK_OWNER = 'agentready-link';

/** What the agents' step of a person-confirmed tool answers. */
export const awaitingPersonOutput = z.object({
  status: z.literal('awaiting_person').describe('Nothing is done yet: the person confirms at guidance.confirmationUrl.'),
  summary: z.string().describe('What the person is asked to confirm, in the words the confirmation page shows.'),
  draft: z.object({ id: z.string(), version: z.number().int().positive() }).describe('The stored request the person confirms.'),
});

/** The input of the person's step: the draft version shown on the confirmation page, and the key made from it. */
const personStepInput = z.object({
  draft_id: z.string().min(1).max(80),
  draft_version: z.number().int().positive(),
  idempotency_key: idempotencyKeySchema,
});

/** The two tools a person-confirmed tool becomes, and what the confirmation page needs of it. */
export type PersonConfirmedTool = {
  /** The declared tool. */
  declared: ToolContract;
  /** What agents are offered: stores the request, answers where the person confirms. */
  agentStep: ToolContract;
  /** What the person's Confirm runs, on the site only. */
  personStep: ToolContract;
};

/**
 * Splits a commit tool that declares `confirm` into the agents' step and the
 * person's step (see the module's words).
 *
 * @param drafts the site's draft store, on `db`.
 * @param confirmationPath the confirmation page's path for a draft id (`/agentready/confirm/drf-…`).
 */
export function personConfirmedTool<App>(
  declared: ToolContract,
  db: Kysely<any>,
  drafts: DraftStore,
  confirmationPath: (draftId: string) => string,
): PersonConfirmedTool {
  const defineSiteTool = defineToolFor<App>();
  const confirm = declared.confirm!.bind(declared);
  const handler = declared.handler!.bind(declared);
  const agentStep = defineSiteTool({
    name: declared.name,
    title: declared.title,
    description: declared.description,
    effect: 'prepare',
    capability: declared.capability,
    input: declared.input,
    output: awaitingPersonOutput,
    async handler(input, call) {
      const summary = await confirm(input, call as ToolCallContext<unknown>);
      // One pending request per owner and request: preparing the same thing again answers the same draft, not a second link.
      const subject = `request:${draftContentHash(input)}`;
      const saved = await drafts.save({ ownerId: ownerOf(call.principal), action: declared.name, subject, content: input });
      if (!saved.ok) return { ok: false, failure: saved.failure };
      const { draft } = saved;
      return {
        ok: true,
        data: { status: 'awaiting_person' as const, summary, draft: { id: draft.id, version: draft.version } },
        guidance: { availableActions: [], requiresHumanConfirmation: true, confirmationUrl: confirmationPath(draft.id) },
        evidence: { draft: { id: draft.id, version: draft.version, hash: draft.hash } },
      };
    },
    // The MCP text adds where the person finishes: the confirmation page's link.
    text: (data) => `Nothing is done yet. The person is asked: ${JSON.stringify(data.summary)} (draft ${data.draft.id}, version ${data.draft.version}).`,
  });
  const personStep = defineSiteTool({
    name: personStepName(declared.name),
    title: declared.title,
    description: `The person confirms the request an agent prepared with ${declared.name}, on the site's confirmation page; it runs once.`,
    effect: 'write',
    capability: declared.capability,
    input: personStepInput,
    output: declared.output,
    async handler(input, call) {
      const draft = await drafts.find(ownerOf(call.principal), input.draft_id);
      if (draft === null || draft.action !== declared.name) {
        return {
          ok: false,
          failure: { code: 'NOT_FOUND', field: 'draft_id', message: 'This request is no longer waiting for you: it was done, declined or has expired.' },
        };
      }
      if (draft.version !== input.draft_version) {
        return {
          ok: false,
          failure: {
            code: 'CONFLICT',
            field: 'draft_version',
            message: 'The request changed after you opened it.',
            nextAction: 'Open the confirmation page again.',
          },
        };
      }
      // The stored request, never what a later caller sends, is what runs.
      const request = declared.input.safeParse(draft.content);
      if (!request.success) {
        return {
          ok: false,
          failure: {
            code: 'CONFLICT',
            field: 'draft_id',
            message: 'The stored request no longer fits the tool.',
            nextAction: 'Ask the agent to prepare it again.',
          },
        };
      }
      const outcome = await handler(request.data, call as ToolCallContext<unknown>);
      if (outcome.ok) await drafts.deleteWithin(db, draft.id);
      return { ...outcome, evidence: { ...outcome.evidence, draft: { id: draft.id, version: draft.version, hash: draft.hash } } };
    },
    ...(declared.text !== undefined && { text: declared.text.bind(declared) }),
  });
  return { declared, agentStep, personStep };
}

/** The site-only tool a person's Confirm of `name` runs. */
export function personStepName(name: string): string {
  return `confirm_${name}`.slice(0, 64);
}

/** The idempotency key of the person's Confirm of one draft version: every click, browser and retry of it shares it. */
export function confirmationKey(draft: Pick<Draft, 'id' | 'version'>): string {
  return `confirm:${draft.id}:v${draft.version}`;
}

/** Whose a draft is: the caller's, or its link's when the caller has no principal. */
export function ownerOf(principal: Principal | null): string {
  return principal?.id ?? LINK_OWNER;
}
