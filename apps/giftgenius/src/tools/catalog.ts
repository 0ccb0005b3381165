/**
 * @module The GiftGenius tools a chat host is offered over MCP: suggest
 * gifts (read), prepare a checkout (prepare: a draft, nothing bought), and
 * create the checkout session (commit), which only the app's view calls when
 * the person clicks Confirm: it is listed with MCP Apps visibility `["app"]`
 * and needs the confirmation token the view alone receives.
 * Inputs are snake_case (the toolkit's rule); outputs camelCase, like Events'.
 */
import { defineCatalog, defineTool, untrustedText } from 'agentready';
import { idempotencyKeySchema } from 'agentready/runtime';
import { z } from 'zod';
import { CURRENCIES } from '../domain/gift-catalog.ts';
import { RELATIONSHIPS } from '../domain/gift-suggestions.ts';
import { WIDGET_CONTRACT_VERSION } from '../widget/widget-contract.ts';

/** The capability every GiftGenius tool serves. */
export const GIFT_CHECKOUT_CAPABILITY = 'gift-checkout.create';

const money = z.object({ amountMinor: z.number().int().describe('Whole minor units (cents).'), currency: z.enum(CURRENCIES) });
const contractVersion = z.literal(WIDGET_CONTRACT_VERSION).describe('Version of the data contract the widget reads.');
const giftId = z.string().trim().min(1).max(80);

const budget = z
  .strictObject({
    min: z.number().nonnegative().max(1_000_000).optional().describe('Least to spend, in major units of currency (49.99).'),
    max: z.number().nonnegative().max(1_000_000).optional().describe('Most to spend, in major units of currency.'),
  })
  .superRefine(function minNotAboveMax(value, ctx) {
    if (value.min !== undefined && value.max !== undefined && value.min > value.max) {
      ctx.addIssue({ code: 'custom', path: ['min'], message: 'the minimum must not be above the maximum.' });
    }
  });

const giftCard = z.object({
  giftId: z.string(),
  name: untrustedText(z.string()).describe("The shop's name for the gift"),
  description: untrustedText(z.string()).describe("The shop's description"),
  price: money,
  tags: z.array(z.string()),
  ageRange: z.object({ min: z.number().int(), max: z.number().int() }),
  inStock: z.boolean(),
  imageUrl: z.string().nullable(),
  matchedInterests: z.array(z.string()).describe('Which of the asked interests this gift answers.'),
});

export const suggestGifts = defineTool({
  name: 'suggest_gifts',
  title: 'Suggest gifts',
  effect: 'read',
  untrustedContent: true,
  // Every tool reaches the payment provider: its catalog, its checkout sessions.
  openWorld: true,
  capability: GIFT_CHECKOUT_CAPABILITY,
  description:
    'Suggests gifts from the shop for a recipient: relationship (required), age, interests and a budget in a currency. ' +
    'Shows the gifts as cards in the GiftGenius widget. When nothing matches the answer is still ok, with an empty list, noResultsReason and one concrete suggestion ' +
    '(raise the budget to an amount, drop an interest, leave out the age): offer it to the person. ' +
    'Each person has a daily number of suggestions (RATE_LIMITED says when more are available). TEMPORARY_FAILURE means the shop is down: try again later with the same arguments.',
  input: z.object({
    recipient: z.strictObject({
      relationship: z.enum(RELATIONSHIPS).describe('Who the gift is for, from the person giving it.'),
      age: z.number().int().min(0).max(120).optional().describe('Age in whole years, 0 to 120.'),
    }),
    interests: z
      .array(z.string().trim().min(1).max(40))
      .max(8)
      .default([])
      .describe('What the recipient likes, in a few words each ("coffee", "board games").'),
    budget: budget.optional(),
    currency: z.enum(CURRENCIES).default('USD'),
    limit: z.number().int().min(1).max(12).default(6),
  }),
  output: z.object({
    contractVersion,
    view: z.literal('gift_suggestions'),
    gifts: z.array(giftCard),
    noResultsReason: z.string().nullable(),
    suggestion: z
      .object({
        kind: z.enum(['raise_budget', 'lower_budget_min', 'drop_interest', 'drop_age']),
        text: z.string(),
        budgetMax: z.number().optional(),
        budgetMin: z.number().optional(),
        interest: z.string().optional(),
      })
      .nullable(),
    criteria: z.object({
      relationship: z.enum(RELATIONSHIPS),
      age: z.number().int().nullable(),
      interests: z.array(z.string()),
      budget: z.object({ min: z.number().nullable(), max: z.number().nullable() }),
      currency: z.enum(CURRENCIES),
    }),
    remainingToday: z.number().int().nullable().describe('Suggestions the person has left today (null: no daily limit).'),
  }),
});

export const prepareCheckout = defineTool({
  name: 'prepare_checkout',
  title: 'Prepare a checkout',
  effect: 'prepare',
  untrustedContent: true,
  openWorld: true,
  capability: GIFT_CHECKOUT_CAPABILITY,
  description:
    'Prepares buying one gift (a giftId from suggest_gifts): checks the current price and stock and answers a checkout draft ' +
    '(gift, quantity, total, delivery estimate, draftId and version) that the GiftGenius widget shows with a Confirm button. Nothing is bought. ' +
    'Only the person can complete the purchase, by clicking Confirm in the widget; you cannot. Tell the person to review it there.',
  input: z.object({ gift_id: giftId, quantity: z.number().int().min(1).max(5).default(1), currency: z.enum(CURRENCIES).default('USD') }),
  output: z.object({
    contractVersion,
    view: z.literal('checkout_review'),
    draft: z.object({
      draftId: z.string(),
      version: z.number().int(),
      gift: z.object({ giftId: z.string(), name: untrustedText(z.string()), imageUrl: z.string().nullable() }),
      quantity: z.number().int(),
      unitPrice: money,
      total: money,
      delivery: z.object({ earliest: z.string(), latest: z.string() }),
      expiresAt: z.string().describe('When the Confirm in the widget stops working (ISO 8601).'),
    }),
    /** For the widget only: moved into the result's `_meta` before it leaves the server (tools/giftgenius-mcp-server.ts). */
    checkoutConfirmation: z.object({ confirmationToken: z.string(), draftId: z.string(), draftVersion: z.number().int() }).optional(),
  }),
});

export const createCheckoutSession = defineTool({
  name: 'create_checkout_session',
  title: 'Create the checkout session',
  effect: 'commit',
  openWorld: true,
  capability: GIFT_CHECKOUT_CAPABILITY,
  description:
    "Called by the GiftGenius widget when the person clicks Confirm, never by the model: opens the payment provider's checkout session for the confirmed draft version. " +
    'Takes the draft id and version, the confirmation token the widget received, and an idempotency key the widget made. The same key answers the same session; ' +
    'after TEMPORARY_FAILURE the same call with the same key opens one session, never two. CONFLICT with changes says what changed (price, availability, stock).',
  input: z.object({
    draft_id: z.string().min(1).max(80),
    draft_version: z.number().int().positive(),
    confirmation_token: z.string().min(1).max(200),
    idempotency_key: idempotencyKeySchema,
  }),
  output: z.object({
    contractVersion,
    view: z.literal('checkout_created'),
    checkout: z.object({
      sessionId: z.string(),
      url: z.string(),
      status: z.string(),
      total: money,
      expiresAt: z.string(),
      openedBefore: z
        .boolean()
        .describe('True when this person had already opened this checkout from the same draft version (another view, another key): no second one was made.'),
    }),
  }),
});

/** The approved catalog of the GiftGenius MCP server. */
export const giftgeniusCatalog = defineCatalog([suggestGifts, prepareCheckout, createCheckoutSession] as const, { allowCommitTools: true });
