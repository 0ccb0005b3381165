/**
 * @module How a person's words for what someone likes ("coffee lover",
 * "board games", "dogs") meet the catalog's tags: a small vocabulary of
 * synonyms onto tags, then whole-word matching on the tags, the name and the
 * description. Pure.
 */
import type { GiftProduct } from './gift-catalog.ts';

/** Other words people use for a catalog tag, keyed by the tag. */
const TAG_SYNONYMS: Record<string, readonly string[]> = {
  reading: ['book', 'books', 'novel', 'novels', 'reader', 'literature'],
  cooking: ['cook', 'cooks', 'chef', 'kitchen', 'food', 'foodie'],
  baking: ['bake', 'baker', 'pastry', 'bread'],
  gaming: ['games', 'video games', 'videogames', 'gamer', 'console'],
  'board-games': ['board games', 'boardgames', 'board game', 'tabletop', 'card games'],
  music: ['musician', 'songs', 'guitar', 'piano', 'vinyl', 'records'],
  photography: ['photo', 'photos', 'camera', 'cameras', 'photographer'],
  art: ['painting', 'drawing', 'sketching', 'artist', 'illustration'],
  crafts: ['craft', 'diy', 'making', 'sewing', 'embroidery'],
  pets: ['pet', 'dog', 'dogs', 'cat', 'cats', 'puppy', 'kitten'],
  plants: ['plant', 'houseplants', 'succulents', 'flowers'],
  gardening: ['garden', 'gardener', 'outdoors garden'],
  fitness: ['gym', 'workout', 'exercise', 'training', 'strength'],
  running: ['run', 'runner', 'jogging', 'marathon'],
  cycling: ['bike', 'bikes', 'bicycle', 'cyclist'],
  hiking: ['hike', 'hiker', 'trekking', 'walking', 'outdoors'],
  camping: ['camp', 'camper', 'tent'],
  astronomy: ['stars', 'space', 'planets', 'telescope'],
  science: ['stem', 'experiments', 'chemistry', 'physics'],
  movies: ['movie', 'film', 'films', 'cinema'],
  travel: ['traveller', 'traveler', 'trips', 'journeys'],
  tech: ['technology', 'gadgets', 'gadget', 'electronics', 'computers'],
  wellness: ['relaxation', 'self-care', 'selfcare', 'spa', 'mindfulness', 'meditation'],
  beauty: ['makeup', 'skincare', 'cosmetics'],
  jewelry: ['jewellery', 'necklace', 'earrings', 'rings', 'bracelet'],
  fashion: ['clothes', 'style', 'clothing'],
  writing: ['writer', 'journaling', 'journal', 'poetry'],
  stationery: ['pens', 'notebooks', 'paper'],
  chocolate: ['sweets', 'candy', 'dessert'],
  wine: ['wines', 'sommelier'],
  tea: ['teas', 'matcha'],
  coffee: ['espresso', 'barista', 'latte'],
  toys: ['toy', 'play'],
  puzzles: ['puzzle', 'jigsaw', 'riddles'],
  sports: ['sport', 'football', 'soccer', 'basketball', 'tennis'],
  yoga: ['pilates', 'stretching'],
  home: ['home decor', 'decor', 'interior', 'cozy'],
  history: ['historian', 'museums', 'ancient'],
  fishing: ['fish', 'angling', 'angler'],
  golf: ['golfer'],
  knitting: ['knit', 'crochet', 'yarn'],
  office: ['work', 'desk', 'workplace'],
};

/** Lower case, single spaces, no trailing "lover"/"fan"/"enthusiast": "Coffee Lover" → "coffee". */
export function normalizeInterest(interest: string): string {
  return interest
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}\s-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\s+(lovers?|fans?|enthusiasts?|addicts?|nerds?|geeks?)$/u, '');
}

/** The catalog tag an interest names, directly or by a synonym, or null. */
export function tagOfInterest(interest: string, tags: ReadonlySet<string>): string | null {
  const normalized = normalizeInterest(interest);
  if (tags.has(normalized)) return normalized;
  const hyphenated = normalized.replace(/ /g, '-');
  if (tags.has(hyphenated)) return hyphenated;
  for (const [tag, synonyms] of Object.entries(TAG_SYNONYMS)) {
    if (tags.has(tag) && synonyms.includes(normalized)) return tag;
  }
  const singular = normalized.endsWith('s') ? normalized.slice(0, -1) : null;
  return singular !== null && tags.has(singular) ? singular : null;
}

/**
 * Whether `product` answers `interest`: it carries the interest's tag, or the
 * interest's words stand as whole words in its name or description (so
 * "lavender" finds a lavender candle though no tag says so).
 */
export function interestMatches(interest: string, product: GiftProduct, tags: ReadonlySet<string>): boolean {
  const tag = tagOfInterest(interest, tags);
  if (tag !== null) return product.tags.includes(tag);
  const words = normalizeInterest(interest);
  if (words.length < 3) return false;
  const pattern = new RegExp(`(^|[^\\p{L}\\p{N}])${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\p{L}\\p{N}]|$)`, 'iu');
  return pattern.test(product.name) || pattern.test(product.description);
}
