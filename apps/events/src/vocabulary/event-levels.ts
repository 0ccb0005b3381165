/**
 * @module How much an attendee is expected to know: the closed list of event
 * levels that the store keeps, search filters by and pages show.
 * Isomorphic: no I/O.
 */

/** Every level, from least to most expected knowledge. */
export const EVENT_LEVELS = ['beginner', 'intermediate', 'advanced'] as const;

/** One level, e.g. `"beginner"`. */
export type EventLevel = (typeof EVENT_LEVELS)[number];
