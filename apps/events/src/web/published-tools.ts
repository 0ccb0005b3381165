/**
 * @module
 * The catalog's tools as the pages publish them on WebMCP, with the input
 * each route takes: JSON data (agentready's `publishTool`: name, words,
 * annotations, input JSON Schema, what the page checks itself).
 *
 * Computed at build time: the client build (vite.config.ts) runs this module
 * in Node and ships only its exported data, so the page gets the contracts
 * without zod or the catalog's schemas. In Node (the server, tests) it runs
 * as written.
 */
import { publishTool } from 'agentready';
import { z } from 'zod';
import { getEventDetails, prepareEventRegistration, prepareRegistrationCancellation, saveEvent, searchEvents } from '../tools/catalog.ts';

/** Each page tool's published contract, by how the routes use it (route-tools.ts). */
export const publishedTools = {
  searchEvents: publishTool(searchEvents),
  getEventDetails: publishTool(getEventDetails),
  /** get_event_details where the route decides the event (`/events/:id`): `{}`. */
  getShownEventDetails: publishTool(getEventDetails, z.object({})),
  saveEvent: publishTool(saveEvent),
  /** prepare_event_registration where the route decides the event: `{name?, email?}`. */
  fillRegistrationForm: publishTool(prepareEventRegistration, prepareEventRegistration.input.omit({ event_id: true })),
  prepareRegistrationCancellation: publishTool(prepareRegistrationCancellation),
};
