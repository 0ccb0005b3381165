/**
 * @module `suggest_gifts` (read): gifts from the shop for a recipient,
 * relationship (required), age, interests and a budget in a currency; shown
 * as cards in the GiftGenius widget. No match is a normal answer with a
 * reason and one concrete suggestion that works when followed.
 */
import { untrustedText } from 'agentready';
import { z } from 'zod';
import { CURRENCIES, formatMoney } from '../domain/gift-catalog.ts';
import { findGifts } from '../domain/gift-finder.ts';
import { distinctInterests, RELATIONSHIPS } from '../domain/gift-suggestions.ts';
import { WIDGET_CONTRACT_VERSION } from '../widget/widget-contract.ts';
import { contractVersionOutput, defineGiftGeniusTool, failed, GIFT_CHECKOUT_CAPABILITY, moneyOutput } from './giftgenius-tool.ts';
import { prepareCheckout } from './prepare-checkout.ts';

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
  price: moneyOutput,
  tags: z.array(z.string()),
  ageRange: z.object({ min: z.number().int(), max: z.number().int() }),
  inStock: z.boolean(),
  imageUrl: z.string().nullable(),
  matchedInterests: z.array(z.string()).describe('Which of the asked interests this gift answers.'),
});

export const suggestGifts = defineGiftGeniusTool({
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
    contractVersion: contractVersionOutput,
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

  async handler(input, { app: ctx, principal }) {
    const criteria = {
      relationship: input.recipient.relationship,
      age: input.recipient.age ?? null,
      interests: distinctInterests(input.interests),
      budget: { min: input.budget?.min ?? null, max: input.budget?.max ?? null },
      currency: input.currency,
      limit: input.limit,
    };
    const found = await findGifts(ctx, principal!, criteria);
    if (!found.ok) return failed(found);
    const { gifts, noResultsReason, suggestion, remainingToday } = found.value;
    const data = {
      contractVersion: WIDGET_CONTRACT_VERSION,
      view: 'gift_suggestions' as const,
      gifts: gifts.map(({ product, price, matchedInterests }) => ({
        giftId: product.id,
        name: product.name,
        description: product.description,
        price,
        tags: product.tags,
        ageRange: product.ageRange,
        inStock: product.stock > 0,
        imageUrl: product.imageUrl,
        matchedInterests,
      })),
      noResultsReason,
      suggestion,
      criteria: {
        relationship: criteria.relationship,
        age: criteria.age,
        interests: criteria.interests,
        budget: criteria.budget,
        currency: criteria.currency,
      },
      remainingToday,
    };
    return { ok: true, data, guidance: { availableActions: gifts.length > 0 ? [prepareCheckout.name] : ['suggest_gifts'] } };
  },

  text(data) {
    const left = data.remainingToday === null ? '' : ` ${data.remainingToday} suggestion${data.remainingToday === 1 ? '' : 's'} left today.`;
    if (data.gifts.length === 0) return `No gift found. ${data.noResultsReason ?? ''} ${data.suggestion?.text ?? ''}${left}`.replace(/\s+/g, ' ').trim();
    // Names are the shop's words: the MCP surface hands them here already quoted, as any third-party text.
    const gifts = data.gifts.map((gift) => `${gift.giftId}: ${gift.name}, ${formatMoney(gift.price)}${gift.inStock ? '' : ' (out of stock)'}`);
    return `${data.gifts.length} gift${data.gifts.length === 1 ? '' : 's'}, shown as cards in the widget: ${gifts.join('; ')}.${left}`;
  },
});
