/**
 * @module The data contract between GiftGenius's tools and its widget (the
 * MCP Apps view): the version both sides agree on and the shapes of each
 * tool result's `data` (docs: notes/giftgenius-spec.md, "Tools"). The server
 * imports the constant and the types from here, so this file imports nothing
 * from the DOM or Preact and holds no code that runs.
 */

/**
 * The version of the data shapes below. Every tool result's `data` carries it
 * as `contractVersion`; a widget that meets any other number shows "this view
 * is out of date" instead of guessing. Raise it when a shape changes in a way
 * an older widget would misread.
 */
export const WIDGET_CONTRACT_VERSION = 1 as const;

/** The currencies a price may be in (ISO 4217). */
export type CurrencyCode = 'USD' | 'EUR' | 'TWD';

/** An amount of money: whole minor units (cents for USD and EUR, ISO 4217's two decimals for TWD). */
export type Money = { amountMinor: number; currency: CurrencyCode };

/** Who the gift is for (suggest_gifts input `recipient.relationship`). */
export type Relationship = 'partner' | 'spouse' | 'parent' | 'child' | 'sibling' | 'grandparent' | 'friend' | 'colleague' | 'teacher' | 'other';

/** One suggested gift. `description` and `name` are written by the catalog's authors (third-party text). */
export type GiftCard = {
  /** Opaque ID prepare_checkout takes (as `gift_id`). */
  giftId: string;
  name: string;
  description: string;
  price: Money;
  tags: string[];
  ageRange: { min: number; max: number };
  inStock: boolean;
  /** Absolute URL of the gift's picture, or null when it has none. */
  imageUrl: string | null;
  /** Which of the asked interests this gift matches. */
  matchedInterests: string[];
};

/** What to change when nothing matched (suggest_gifts `data.suggestion`). */
export type GiftSuggestion = {
  kind: 'raise_budget' | 'drop_interest' | 'drop_age' | 'lower_budget_min';
  /** A sentence for the person, e.g. "Raise the budget to $40 to see 3 gifts." */
  text: string;
  /** The budget maximum (major units) that would give results, with `raise_budget`. */
  budgetMax?: number;
  /** The budget minimum (major units) that would give results, with `lower_budget_min`. */
  budgetMin?: number;
  /** The interest to drop, with `drop_interest`. */
  interest?: string;
};

/** suggest_gifts `data`. */
export type GiftSuggestionsData = {
  contractVersion: typeof WIDGET_CONTRACT_VERSION;
  view: 'gift_suggestions';
  gifts: GiftCard[];
  /** Why the list is empty (a sentence), or null when it is not. */
  noResultsReason: string | null;
  suggestion: GiftSuggestion | null;
  criteria: {
    relationship: Relationship;
    age: number | null;
    interests: string[];
    /** Major units of `currency`. */
    budget: { min: number | null; max: number | null };
    currency: CurrencyCode;
  };
  /** How many suggest_gifts calls the principal has left today (null: no daily limit). */
  remainingToday: number | null;
};

/** A prepared, uncommitted checkout: what the person reviews before Confirm. */
export type CheckoutDraft = {
  draftId: string;
  /** Rises each time the draft is revised; a confirmation is bound to one version. */
  version: number;
  gift: { giftId: string; name: string; imageUrl: string | null };
  quantity: number;
  unitPrice: Money;
  total: Money;
  /** Calendar dates, `YYYY-MM-DD`. */
  delivery: { earliest: string; latest: string };
  /** ISO 8601 with offset: when the draft stops being confirmable. */
  expiresAt: string;
};

/** prepare_checkout `data`. */
export type CheckoutReviewData = {
  contractVersion: typeof WIDGET_CONTRACT_VERSION;
  view: 'checkout_review';
  draft: CheckoutDraft;
};

/** The checkout session the payment provider opened. */
export type CheckoutSessionView = {
  sessionId: string;
  /** The provider's hosted payment page. */
  url: string;
  status: 'open' | 'complete' | 'expired';
  total: Money;
  /** ISO 8601 with offset. */
  expiresAt: string;
  /** True when this person had already opened this checkout from the same draft version (another view, another key): no second one was made. */
  openedBefore?: boolean;
};

/** create_checkout_session `data`. */
export type CheckoutCreatedData = {
  contractVersion: typeof WIDGET_CONTRACT_VERSION;
  view: 'checkout_created';
  checkout: CheckoutSessionView;
};

/** Every `data` the widget renders, told apart by `view`. */
export type WidgetData = GiftSuggestionsData | CheckoutReviewData | CheckoutCreatedData;

/** The `_meta` key of a prepare_checkout result that carries {@link CheckoutConfirmationMeta}. */
export const CHECKOUT_META_KEY = 'giftgenius/checkout';

/**
 * prepare_checkout result `_meta['giftgenius/checkout']`: for the widget only,
 * never in `structuredContent` or the text the model reads. The widget sends
 * the token back to create_checkout_session when the person clicks Confirm
 * and never shows it.
 */
export type CheckoutConfirmationMeta = { confirmationToken: string; draftId: string; draftVersion: number };

/**
 * create_checkout_session input (tool input keys are snake_case, a toolkit
 * rule): the draft the person confirmed, the token and the widget's key.
 */
export type CreateCheckoutSessionInput = {
  draft_id: string;
  draft_version: number;
  confirmation_token: string;
  /** Made by the widget (crypto.randomUUID()) once per (draftId, draftVersion). */
  idempotency_key: string;
};

/** prepare_checkout input: the gift, how many (1–5, default 1) and the currency (default USD). */
export type PrepareCheckoutInput = { gift_id: string; quantity?: number; currency?: CurrencyCode };

/**
 * One thing that changed since the draft was prepared (a CONFLICT failure's
 * `changes`, the toolkit's envelope extension): `price` in minor units of the
 * draft's currency, `availability` as a word (`available`, `discontinued`),
 * `stock` as a count.
 */
export type DraftChange = {
  /** price: minor units; availability: `available` → `discontinued`, `in_stock` → `out_of_stock`; stock: units. */
  field: 'price' | 'availability' | 'stock';
  was: string | number | boolean | null;
  now: string | number | boolean | null;
};

/** The names of the tools the widget calls or renders. */
export type GiftGeniusToolName = 'suggest_gifts' | 'prepare_checkout' | 'create_checkout_session';
