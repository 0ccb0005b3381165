/**
 * @module The payment provider stand-in's gift catalog: base products
 * written by hand in the `gift-products-*.ts` files (one per kind of gift),
 * each expanded into one product per variant (colour, size, edition), with
 * prices in USD, EUR and TWD, stock, delivery days and whether it is still
 * sold. Everything here is computed at import from fixed data, the same on
 * every run: no randomness, no clock.
 *
 * Amounts are ISO 4217 minor units (cents for all three currencies, so
 * 1,590 TWD is 159000). EUR and TWD prices are derived from the USD price
 * at fixed rates and rounded the way a shop prices (45.99 EUR, 1,590 TWD).
 */
import { createHash } from 'node:crypto';
import { GIFTS_FOR_CREATORS } from './gift-products-creative.ts';
import { GIFTS_FOR_GAMES_AND_TECH } from './gift-products-games-tech.ts';
import { GIFTS_FOR_HOME_AND_STYLE } from './gift-products-home.ts';
import { GIFTS_FOR_KIDS } from './gift-products-kids.ts';
import { GIFTS_FOR_KITCHEN } from './gift-products-kitchen.ts';
import { GIFTS_FOR_OUTDOORS } from './gift-products-outdoors.ts';
import type { GiftTag } from './gift-tags.ts';

export { GIFT_TAGS, isGiftTag, type GiftTag } from './gift-tags.ts';

/** One variant of a base product: its label joins the name (`…, Slate Grey`); a price or sentence of its own where it differs. */
export type GiftVariant = {
  /** Shown after the base name, e.g. `Slate Grey`, `24 cm`, `Volume 2`; its slug ends the product id. */
  label: string;
  /** The variant's USD price in major units (e.g. 59.99), when not the base price. */
  usd?: number;
  /** A second sentence for the description, when the variant differs by more than its label. */
  note?: string;
};

/** A gift as written by hand, before it is expanded into its variants. */
export type GiftBaseProduct = {
  /** Lower-case words joined by `-`, unique in the catalog; the product id is `prod_<slug>` or `prod_<slug>-<variant slug>`. */
  slug: string;
  name: string;
  /** One sentence, no brand names. */
  description: string;
  /** USD price in major units, 5 to 500. */
  usd: number;
  tags: readonly GiftTag[];
  /** Recipient ages in years, inclusive; 18–120 when not given. */
  ages?: readonly [min: number, max: number];
  /** Business days from order to delivery, inclusive; 2–5 when not given. */
  delivery?: readonly [min: number, max: number];
  /** One product per variant; the base alone when there are none. */
  variants?: readonly GiftVariant[];
};

/** Prices of one product in ISO 4217 minor units (cents). */
export type GiftPrices = { usd: number; eur: number; twd: number };

/** One product of the catalog as the stand-in starts with it. */
export type GiftProduct = {
  /** `prod_` and a slug, stable across runs. */
  id: string;
  name: string;
  description: string;
  /** False for a discontinued product (still listed, not sold). */
  active: boolean;
  tags: readonly GiftTag[];
  /** Recipient ages in years, inclusive. */
  ageRange: { min: number; max: number };
  prices: GiftPrices;
  /** Units in stock; 0 for a sold-out product. */
  stock: number;
  /** Business days from order to delivery, inclusive. */
  deliveryDays: { min: number; max: number };
};

/** USD→EUR rate the EUR prices are derived with. */
const EUR_PER_USD = 0.92;
/** USD→TWD rate the TWD prices are derived with. */
const TWD_PER_USD = 32;

/** Products no longer sold: listed with `active: false`. */
const DISCONTINUED_IDS = [
  'prod_milk-frother-copper',
  'prod_instant-film-pack-monochrome',
  'prod_game-controller-transparent-purple',
  'prod_classic-novels-box-ten-volumes',
  'prod_kids-camera-pink',
  'prod_smart-plug-two-pack',
  'prod_birthstone-earrings-july-ruby-red',
];

/** Products sold out at start: stock 0. */
const SOLD_OUT_IDS = [
  'prod_espresso-machine-compact-cream',
  'prod_cast-iron-teapot-red',
  'prod_yoga-mat-cork-6-mm',
  'prod_jigsaw-1000-night-market',
  'prod_magnetic-tiles-100-pieces',
  'prod_wool-slippers-eu-43-44',
];

/** Products with only two left at start. */
const LOW_STOCK_IDS = ['prod_chef-knife-layered-24-cm', 'prod_telescope-tabletop-reflector', 'prod_signet-ring-gold-plated', 'prod_wooden-dollhouse'];

/**
 * The shop-like prices of a gift whose USD price is `usd` major units: USD
 * as given; EUR at 0.92 per USD rounded to a whole euro less one cent
 * (below 100) or to five euros less one cent (from 100); TWD at 32 per USD
 * rounded to ten dollars (below 3,000) or a hundred (from 3,000), a round
 * hundred lowered by ten (1,600 → 1,590).
 *
 * @returns minor units (cents) of each currency, e.g. 49.99 → `{ usd: 4999, eur: 4599, twd: 159000 }`.
 */
export function giftPricesFromUsd(usd: number): GiftPrices {
  const eur = usd * EUR_PER_USD;
  const eurWhole = eur < 100 ? Math.max(1, Math.round(eur)) : Math.round(eur / 5) * 5;
  const twd = usd * TWD_PER_USD;
  let twdWhole = twd < 3000 ? Math.round(twd / 10) * 10 : Math.round(twd / 100) * 100;
  if (twdWhole % 100 === 0) twdWhole -= 10;
  return { usd: Math.round(usd * 100), eur: eurWhole * 100 - 1, twd: twdWhole * 100 };
}

/** `Slate Grey` → `slate-grey`, `1,000 Pieces` → `1000-pieces`, `30×40 cm` → `30-40-cm`. */
function slugOf(label: string): string {
  return label
    .toLowerCase()
    .replace(/[,.']/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Units in stock at start for a product that is neither sold out nor low: 4 to 60, fixed by the id's SHA-256. */
function startingStock(id: string): number {
  return 4 + (createHash('sha256').update(id).digest().readUInt32BE(0) % 57);
}

function expandBase(base: GiftBaseProduct): GiftProduct[] {
  const variants = base.variants && base.variants.length > 0 ? base.variants : [undefined];
  return variants.map((variant) => {
    const id = variant ? `prod_${base.slug}-${slugOf(variant.label)}` : `prod_${base.slug}`;
    return {
      id,
      name: variant ? `${base.name}, ${variant.label}` : base.name,
      description: variant?.note ? `${base.description} ${variant.note}` : base.description,
      active: !DISCONTINUED_IDS.includes(id),
      tags: base.tags,
      ageRange: { min: base.ages?.[0] ?? 18, max: base.ages?.[1] ?? 120 },
      prices: giftPricesFromUsd(variant?.usd ?? base.usd),
      stock: SOLD_OUT_IDS.includes(id) ? 0 : LOW_STOCK_IDS.includes(id) ? 2 : startingStock(id),
      deliveryDays: { min: base.delivery?.[0] ?? 2, max: base.delivery?.[1] ?? 5 },
    };
  });
}

/**
 * Expands the hand-written base products and checks the catalog's own rules.
 *
 * @throws Error naming the product when two ids collide, a price is outside
 *   5–500 USD, or a discontinued, sold-out or low-stock id names no product
 *   (a mistake in this file, caught at import).
 */
function buildCatalog(bases: readonly GiftBaseProduct[]): readonly GiftProduct[] {
  const products = bases.flatMap(expandBase).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const ids = new Set<string>();
  for (const product of products) {
    if (ids.has(product.id)) throw new Error(`The gift catalog names ${product.id} twice.`);
    ids.add(product.id);
    if (product.prices.usd < 500 || product.prices.usd > 50_000) throw new Error(`${product.id} costs ${product.prices.usd} cents, outside 5–500 USD.`);
  }
  for (const id of [...DISCONTINUED_IDS, ...SOLD_OUT_IDS, ...LOW_STOCK_IDS]) {
    if (!ids.has(id)) throw new Error(`The gift catalog has no ${id}.`);
  }
  return products;
}

/** Every product of the catalog, in id order (the order `GET /v1/products` pages through). */
export const GIFT_PRODUCTS: readonly GiftProduct[] = buildCatalog([
  ...GIFTS_FOR_KITCHEN,
  ...GIFTS_FOR_OUTDOORS,
  ...GIFTS_FOR_CREATORS,
  ...GIFTS_FOR_HOME_AND_STYLE,
  ...GIFTS_FOR_GAMES_AND_TECH,
  ...GIFTS_FOR_KIDS,
]);
