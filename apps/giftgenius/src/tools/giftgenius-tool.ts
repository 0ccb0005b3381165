/**
 * @module `defineGiftGeniusTool`: the toolkit's `defineTool` for GiftGenius,
 * whose handlers get the domain's context (`call.app`: database, clock, shop,
 * stores, daily limit, log); and what its tools' results share. Inputs are
 * snake_case (the toolkit's rule); outputs camelCase, like Events'.
 */
import { type DomainFailure, defineToolFor, type ToolContract, type ToolSpec } from 'agentready';
import { z } from 'zod';
import { CURRENCIES } from '../domain/gift-catalog.ts';
import { contextOfCall, type GiftGeniusContext } from '../domain/giftgenius-context.ts';
import { WIDGET_CONTRACT_VERSION } from '../widget/widget-contract.ts';

const declareTool = defineToolFor<GiftGeniusContext>();

/**
 * Declares one GiftGenius tool: contract, handler (given the domain's
 * context) and result text, in one place. The handler's context is the
 * call's own ({@link contextOfCall}): every line it logs names the call's trace id.
 */
export function defineGiftGeniusTool<const Name extends string, I extends z.ZodObject, O extends z.ZodObject>(
  spec: ToolSpec<Name, I, O, GiftGeniusContext>,
): ToolContract<Name, I, O, GiftGeniusContext> {
  const { handler } = spec;
  if (handler === undefined) return declareTool(spec);
  return declareTool({ ...spec, handler: (input, call) => handler(input, { ...call, app: contextOfCall(call.app, call.traceId) }) });
}

/** The capability every GiftGenius tool serves. */
export const GIFT_CHECKOUT_CAPABILITY = 'gift-checkout.create';

/** An amount of money as results state it. */
export const moneyOutput = z.object({ amountMinor: z.number().int().describe('Whole minor units (cents).'), currency: z.enum(CURRENCIES) });

/** The version of the data contract the widget reads, in every result. */
export const contractVersionOutput = z.literal(WIDGET_CONTRACT_VERSION).describe('Version of the data contract the widget reads.');

/** A domain refusal as a handler's failure. */
export function failed(result: DomainFailure) {
  return { ok: false as const, failure: result.failure };
}
