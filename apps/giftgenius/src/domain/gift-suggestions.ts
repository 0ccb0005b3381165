/**
 * @module Choosing gifts: which of the catalog's gifts suit a recipient,
 * interests and budget, in what order, and, when none does, why not and what
 * one change would find some (raise the budget, drop an interest, leave out
 * the age). Pure: the catalog is handed in.
 */
import { formatMoney, toMinorUnits, type Currency, type GiftProduct, type Money } from './gift-catalog.ts';
import { interestMatches, normalizeInterest } from './interests.ts';

/** Who the gift is for, as the person describes them. */
export const RELATIONSHIPS = ['partner', 'spouse', 'parent', 'child', 'sibling', 'grandparent', 'friend', 'colleague', 'teacher', 'other'] as const;

/** One of {@link RELATIONSHIPS}. */
export type Relationship = (typeof RELATIONSHIPS)[number];

/** What a suggestion is asked for; budgets in major units (49.99) of `currency`, both ends included. */
export type SuggestionCriteria = {
  relationship: Relationship;
  age: number | null;
  interests: string[];
  budget: { min: number | null; max: number | null };
  currency: Currency;
  limit: number;
};

/** One suggested gift, with the interests it answers. */
export type SuggestedGift = { product: GiftProduct; price: Money; matchedInterests: string[] };

/** The one change that would find gifts, for the person and the model. */
export type SuggestionHint =
  | { kind: 'raise_budget'; text: string; budgetMax: number }
  | { kind: 'lower_budget_min'; text: string; budgetMin: number }
  | { kind: 'drop_interest'; text: string; interest: string }
  | { kind: 'drop_age'; text: string };

/** Gifts in order, or none with the reason and a concrete hint. */
export type Suggestions = { gifts: SuggestedGift[]; noResultsReason: string | null; suggestion: SuggestionHint | null };

/** Tags that suit each relationship a little better; they order gifts, never exclude any. */
const RELATIONSHIP_TAGS: Record<Relationship, readonly string[]> = {
  partner: ['jewelry', 'wellness', 'wine', 'chocolate', 'travel'],
  spouse: ['jewelry', 'wellness', 'wine', 'home', 'travel'],
  parent: ['home', 'gardening', 'cooking', 'tea', 'wellness'],
  child: ['toys', 'kids', 'science', 'puzzles', 'art'],
  sibling: ['gaming', 'music', 'movies', 'board-games', 'fashion'],
  grandparent: ['gardening', 'tea', 'reading', 'home', 'puzzles'],
  friend: ['board-games', 'coffee', 'music', 'plants', 'crafts'],
  colleague: ['office', 'coffee', 'stationery', 'tea', 'plants'],
  teacher: ['stationery', 'reading', 'coffee', 'tea', 'plants'],
  other: [],
};

/**
 * The gifts that are sold now (not discontinued), cost within the budget in
 * `currency`, suit the age, and answer at least one interest (any gift when
 * none is given). Order: more interests answered, in stock, fits the
 * relationship, then price from high to low within the budget (a budget is
 * what the person means to spend), then name. At most `criteria.limit`.
 *
 * @returns the gifts; when none, `noResultsReason` and a `suggestion` from {@link explainNoResults}.
 */
export function suggestGifts(criteria: SuggestionCriteria, catalog: readonly GiftProduct[]): Suggestions {
  const tags = tagsOf(catalog);
  const matches = catalog.flatMap((product) => {
    const matched = matchOf(product, criteria, tags);
    return matched ? [matched] : [];
  });
  if (matches.length === 0) return { gifts: [], ...explainNoResults(criteria, catalog) };
  const fit = new Set(RELATIONSHIP_TAGS[criteria.relationship]);
  const score = (gift: SuggestedGift) => [
    -gift.matchedInterests.length,
    gift.product.stock > 0 ? 0 : 1,
    gift.product.tags.some((tag) => fit.has(tag)) ? 0 : 1,
    -gift.price.amountMinor,
  ];
  const ordered = matches.sort((a, b) => compareScores(score(a), score(b)) || a.product.name.localeCompare(b.product.name, 'en'));
  return { gifts: varied(ordered, criteria.limit), noResultsReason: null, suggestion: null };
}

/**
 * At most `limit` gifts in their order, where among gifts that answer as
 * many interests and are alike in stock, one per product comes first: a
 * colour or size of a gift already shown ("…, Sage Green" after "…, Slate
 * Grey") comes after the other gifts of its tier.
 */
function varied(ordered: readonly SuggestedGift[], limit: number): SuggestedGift[] {
  const productOf = (gift: SuggestedGift) => gift.product.name.split(',')[0]!.trim().toLowerCase();
  const tierOf = (gift: SuggestedGift) => `${gift.matchedInterests.length}|${gift.product.stock > 0}`;
  const seen = new Set<string>();
  const repeats = new Set<SuggestedGift>();
  for (const gift of ordered) {
    if (seen.has(productOf(gift))) repeats.add(gift);
    seen.add(productOf(gift));
  }
  const tiers = [...new Set(ordered.map(tierOf))];
  return tiers
    .flatMap((tier) => {
      const inTier = ordered.filter((gift) => tierOf(gift) === tier);
      return [...inTier.filter((gift) => !repeats.has(gift)), ...inTier.filter((gift) => repeats.has(gift))];
    })
    .slice(0, limit);
}

/** The interests as asked, each once: "Tea", "tea" and "tea lovers" are one interest (the first spelling stays). */
export function distinctInterests(interests: readonly string[]): string[] {
  const seen = new Set<string>();
  return interests.filter((interest) => {
    const normalized = normalizeInterest(interest);
    if (seen.has(normalized)) return false;
    seen.add(normalized);
    return true;
  });
}

/** Every tag the catalog uses. */
export function tagsOf(catalog: readonly GiftProduct[]): ReadonlySet<string> {
  return new Set(catalog.flatMap((product) => product.tags));
}

function matchOf(product: GiftProduct, criteria: Omit<SuggestionCriteria, 'limit'>, tags: ReadonlySet<string>): SuggestedGift | null {
  if (!product.active) return null;
  const amountMinor = product.prices[criteria.currency];
  if (criteria.budget.min !== null && amountMinor < toMinorUnits(criteria.budget.min)) return null;
  if (criteria.budget.max !== null && amountMinor > toMinorUnits(criteria.budget.max)) return null;
  if (criteria.age !== null && (criteria.age < product.ageRange.min || criteria.age > product.ageRange.max)) return null;
  const matchedInterests = criteria.interests.filter((interest) => interestMatches(interest, product, tags));
  if (criteria.interests.length > 0 && matchedInterests.length === 0) return null;
  return { product, price: { amountMinor, currency: criteria.currency }, matchedInterests };
}

function compareScores(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/**
 * Why nothing matched, and the one change that finds gifts. A gift needs to
 * answer only one of the interests, so when nothing matches, either the
 * budget or the age shut out gifts that answer them (then: raise the
 * maximum to the cheapest of them, lower the minimum to the dearest, or
 * leave out the age), or no gift answers any of the interests at all (then:
 * other words, or no interests).
 */
export function explainNoResults(criteria: SuggestionCriteria, catalog: readonly GiftProduct[]): Omit<Suggestions, 'gifts'> {
  const tags = tagsOf(catalog);
  const matchesWith = (changed: Partial<Omit<SuggestionCriteria, 'limit'>>) =>
    catalog.flatMap((product) => matchOf(product, { ...criteria, ...changed }, tags) ?? []);
  const unbounded = matchesWith({ budget: { min: null, max: null } });
  if (unbounded.length > 0) return budgetHint(criteria, unbounded);
  if (criteria.age !== null) {
    const ageless = matchesWith({ age: null });
    const agelessAnyBudget = ageless.length > 0 ? ageless : matchesWith({ age: null, budget: { min: null, max: null } });
    if (agelessAnyBudget.length > 0) {
      const alsoBudget = ageless.length === 0 ? ' and widen the budget' : '';
      return {
        noResultsReason: `No gift for ${criteria.interests.length > 0 ? 'these interests' : 'this recipient'} suits age ${criteria.age}.`,
        suggestion: {
          kind: 'drop_age',
          text: `Search again without the age${alsoBudget} to see ${agelessAnyBudget.length} gift${agelessAnyBudget.length === 1 ? '' : 's'} for other ages.`,
        },
      };
    }
  }
  const first = criteria.interests[0];
  const interestsText = criteria.interests.map((interest) => `"${interest}"`).join(', ');
  if (first === undefined) {
    return { noResultsReason: 'No gift in the catalog is on sale in this currency.', suggestion: null };
  }
  return {
    noResultsReason: `No gift in the shop answers ${interestsText}.`,
    suggestion: {
      kind: 'drop_interest',
      interest: first,
      text: `Leave out "${first}"${criteria.interests.length > 1 ? ' and the other interests' : ''} or describe what they like in other words (for example "coffee", "hiking", "board games").`,
    },
  };
}

function budgetHint(criteria: SuggestionCriteria, matches: readonly SuggestedGift[]): Omit<Suggestions, 'gifts'> {
  const { currency } = criteria;
  const max = criteria.budget.max;
  const above = max === null ? [] : matches.map((gift) => gift.price.amountMinor).filter((amount) => amount > toMinorUnits(max));
  if (max !== null && above.length > 0) {
    const cheapest = Math.min(...above);
    const needed = Math.ceil(cheapest / 100);
    const count = matches.filter((gift) => gift.price.amountMinor <= needed * 100 && gift.price.amountMinor >= toMinorUnits(criteria.budget.min ?? 0)).length;
    return {
      noResultsReason: `Every matching gift costs more than ${formatMoney({ amountMinor: toMinorUnits(max), currency })}; the cheapest is ${formatMoney({ amountMinor: cheapest, currency })}.`,
      suggestion: {
        kind: 'raise_budget',
        budgetMax: needed,
        text: `Raise the budget to ${formatMoney({ amountMinor: needed * 100, currency })} to see ${count} gift${count === 1 ? '' : 's'}.`,
      },
    };
  }
  // Nothing above the maximum, so every match costs less than the minimum.
  const dearest = Math.max(...matches.map((gift) => gift.price.amountMinor));
  const floor = Math.floor(dearest / 100);
  return {
    noResultsReason: `Every matching gift costs less than ${formatMoney({ amountMinor: toMinorUnits(criteria.budget.min ?? 0), currency })}; the dearest is ${formatMoney({ amountMinor: dearest, currency })}.`,
    suggestion: {
      kind: 'lower_budget_min',
      budgetMin: floor,
      text: `Lower the minimum to ${formatMoney({ amountMinor: floor * 100, currency })} to see gifts.`,
    },
  };
}
