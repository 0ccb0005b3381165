/**
 * @module The topics (tags) events carry: stable ids with display names in
 * English and Traditional Chinese, and the other words people search them by.
 * A keyword matches an event's topics through every one of these names.
 * Isomorphic: the server and the browser pages import it.
 */

/** One topic: its id, its display names, and other words that find it (any language). */
export type Topic = { id: string; name: { en: string; zh: string }; alsoKnownAs: readonly string[] };

/** Every topic, in the order the site lists them. */
export const TOPICS = [
  { id: 'ai', name: { en: 'AI', zh: '人工智慧' }, alsoKnownAs: ['artificial intelligence', 'machine learning', '機器學習'] },
] as const satisfies readonly Topic[];

/** One topic's id, e.g. `"ai"`. */
export type TopicId = (typeof TOPICS)[number]['id'];
