/**
 * @module Which Events tools can succeed next for an event and a person: the
 * `availableActions` of the tools that answer about one event.
 */
import type { EventDetail } from '../domain/event-shapes.ts';
import { prepareEventRegistration } from './prepare-event-registration.ts';
import { prepareRegistrationCancellation } from './prepare-registration-cancellation.ts';
import { saveEvent } from './save-event.ts';

/**
 * The tools that can succeed next for this event and person: save it unless
 * saved, prepare a registration while it is open and they are not registered,
 * prepare the cancellation when they are.
 */
export function actionsFor(event: EventDetail): string[] {
  const actions: string[] = [];
  if (!event.saved) actions.push(saveEvent.name);
  if (event.state === 'open' && !event.registered) actions.push(prepareEventRegistration.name);
  if (event.registered) actions.push(prepareRegistrationCancellation.name);
  return actions;
}
