/**
 * @module The controlled vocabulary of interests the payment provider
 * stand-in's catalog tags its gifts with (docs: giftgenius spec, "Provider
 * stand-in HTTP API", Product `tags`). Every product's tags come from this
 * list; a person's interests are matched against it.
 */

/** Every interest a gift may be tagged with: lower-case, words joined by `-`, 45 in all. */
export const GIFT_TAGS = [
  'coffee',
  'tea',
  'cooking',
  'baking',
  'wine',
  'chocolate',
  'gardening',
  'plants',
  'hiking',
  'camping',
  'running',
  'cycling',
  'yoga',
  'fitness',
  'sports',
  'golf',
  'fishing',
  'reading',
  'writing',
  'stationery',
  'music',
  'photography',
  'art',
  'crafts',
  'knitting',
  'gaming',
  'board-games',
  'puzzles',
  'tech',
  'science',
  'astronomy',
  'history',
  'movies',
  'travel',
  'fashion',
  'jewelry',
  'beauty',
  'wellness',
  'home',
  'pets',
  'kids',
  'toys',
  'building',
  'babies',
  'office',
] as const;

/** One interest of {@link GIFT_TAGS}. */
export type GiftTag = (typeof GIFT_TAGS)[number];

const TAG_SET: ReadonlySet<string> = new Set(GIFT_TAGS);

/** Whether `value` is one of {@link GIFT_TAGS} (exact, case-sensitive). */
export function isGiftTag(value: string): value is GiftTag {
  return TAG_SET.has(value);
}
