/**
 * @module The payment provider's HTTP API on the wire (giftgenius spec,
 * "Provider stand-in HTTP API"; modelled on Stripe's products and Checkout
 * Sessions): zod schemas of the JSON bodies, snake_case as sent. The
 * stand-in validates requests and shapes answers with them; the app's
 * client validates answers with them, so both sides hold the same contract.
 * Answer schemas are not strict: a provider may add fields.
 *
 * Amounts are integers in ISO 4217 minor units (cents for usd, eur and twd).
 */
import { z } from 'zod';

/** The currencies the provider prices in, lower-case as on the wire. */
export const PROVIDER_CURRENCIES = ['usd', 'eur', 'twd'] as const;

/** One of {@link PROVIDER_CURRENCIES}. */
export type ProviderCurrencyCode = (typeof PROVIDER_CURRENCIES)[number];

/** Largest amount the provider accepts, in minor units (one million of the currency's major unit). */
export const MAX_UNIT_AMOUNT = 100_000_000;

const amount = z.int().min(0).max(MAX_UNIT_AMOUNT);
const dayRange = z.object({ min: z.int().min(0), max: z.int().min(0) });

/** A product: `GET /v1/products/:id`, and each item of a product list. */
export const productWireSchema = z.object({
  id: z.string().min(1),
  object: z.literal('product'),
  name: z.string(),
  description: z.string(),
  active: z.boolean(),
  images: z.array(z.string()),
  tags: z.array(z.string()),
  age_range: z.object({ min: z.int().min(0), max: z.int().min(0) }),
  price: z.object({
    currency: z.literal('usd'),
    unit_amount: amount,
    currency_options: z.object({ eur: z.object({ unit_amount: amount }), twd: z.object({ unit_amount: amount }) }),
  }),
  inventory: z.object({ quantity: z.int().min(0) }),
  delivery_days: dayRange,
});

/** A product as sent. */
export type ProductWire = z.infer<typeof productWireSchema>;

/** `GET /v1/products`: one page of products in id order. */
export const productListWireSchema = z.object({
  object: z.literal('list'),
  data: z.array(productWireSchema),
  has_more: z.boolean(),
});

/** A page of products as sent. */
export type ProductListWire = z.infer<typeof productListWireSchema>;

/** A checkout session: what `POST /v1/checkout/sessions` creates and `GET /v1/checkout/sessions/:id` reads. */
export const checkoutSessionWireSchema = z.object({
  id: z.string().min(1),
  object: z.literal('checkout.session'),
  url: z.string(),
  status: z.enum(['open', 'complete', 'expired']),
  payment_status: z.enum(['unpaid', 'paid']),
  amount_total: z.int().min(0),
  currency: z.enum(PROVIDER_CURRENCIES),
  line_items: z.array(z.object({ product: z.string(), quantity: z.int().min(1), unit_amount: amount })),
  client_reference_id: z.string().nullable(),
  metadata: z.record(z.string(), z.string()).optional(),
  /** Unix seconds. */
  created: z.int(),
  /** Unix seconds. */
  expires_at: z.int(),
});

/** A checkout session as sent. */
export type CheckoutSessionWire = z.infer<typeof checkoutSessionWireSchema>;

/**
 * The body of `POST /v1/checkout/sessions` (strict: an unknown field is
 * refused): 1–20 line items of 1–99 units each, the price the buyer was
 * shown per unit (`expected_unit_amount`), the currency, and the caller's
 * own reference and metadata.
 */
export const checkoutSessionRequestSchema = z.strictObject({
  line_items: z
    .array(
      z.strictObject({
        product: z.string().min(1).max(100),
        quantity: z.int().min(1).max(99),
        expected_unit_amount: amount,
      }),
    )
    .min(1)
    .max(20),
  currency: z.enum(PROVIDER_CURRENCIES),
  client_reference_id: z.string().min(1).max(200).optional(),
  metadata: z.record(z.string().min(1).max(40), z.string().max(500)).optional(),
});

/** A checkout session request as sent. */
export type CheckoutSessionRequestWire = z.infer<typeof checkoutSessionRequestSchema>;

/** The `type` of a provider error. */
export type ProviderErrorType = 'invalid_request_error' | 'api_error' | 'authentication_error' | 'idempotency_error';

/** Every 4xx and 5xx answer: one error with its type, a machine-readable code, a sentence, and facts some codes add. */
export const providerErrorWireSchema = z.object({
  error: z.looseObject({
    type: z.string(),
    code: z.string(),
    message: z.string(),
    /** The request field at fault, dotted, e.g. `line_items.0.quantity`. */
    param: z.string().optional(),
    /** With `price_changed`: the product's price now, in minor units of the request's currency. */
    current_unit_amount: z.int().optional(),
    /** With `out_of_stock`: units left. */
    available_quantity: z.int().optional(),
  }),
});

/** An error answer as sent. */
export type ProviderErrorWire = z.infer<typeof providerErrorWireSchema>;
