/**
 * @module
 * The topics' display names by id, in English and Traditional Chinese, as
 * the pages show them on event cards (vocabulary/topics.ts's `name`).
 *
 * Computed at build time: the client build (vite.config.ts) runs this module
 * in Node and ships only its data, so the page gets the names without the
 * other words a search matches topics by. In Node (the server, tests) it
 * runs as written.
 */
import { TOPICS } from '../vocabulary/topics.ts';

/** Each topic's names, by topic id: `{ en, zh }`. */
export const topicNames: Record<string, { en: string; zh: string }> = Object.fromEntries(TOPICS.map((topic) => [topic.id, { ...topic.name }]));
