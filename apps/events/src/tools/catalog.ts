/**
 * @module The Events catalog: the five tools agents are offered, each
 * declared in its own file (contract, handler, result text). Five names,
 * three journeys; registration and cancellation stop before a person
 * confirms, so no tool submits or confirms anything. Every surface, route
 * profile and `availableActions` list takes its names from here.
 */
import { defineCatalog } from 'agentready';
import { getEventDetails } from './get-event-details.ts';
import { prepareEventRegistration } from './prepare-event-registration.ts';
import { prepareRegistrationCancellation } from './prepare-registration-cancellation.ts';
import { saveEvent } from './save-event.ts';
import { searchEvents } from './search-events.ts';

/** The approved catalog: exactly these five tools, in this order. */
export const eventsCatalog = defineCatalog([searchEvents, getEventDetails, saveEvent, prepareEventRegistration, prepareRegistrationCancellation] as const);
