/**
 * @module The sentence of key facts each Events tool states in the text
 * content of its MCP results (title, date, venue, places left), for clients
 * whose model sees the text rather than `structuredContent`. Titles are the
 * organisers' words and are quoted as such.
 */
import type { ResultDescriptions } from 'agentready/mcp';
import type { EventSummary } from '../domain/event-shapes.ts';
import type { eventsCatalog } from './catalog.ts';

type EventsTool = (typeof eventsCatalog.tools)[number];

/** Events listed by name in the text of a search result, at most. */
const EVENTS_IN_TEXT = 5;

/** One sentence per Events tool; the MCP adapter adds where a person must finish. */
export const eventsResultDescriptions: ResultDescriptions<EventsTool> = {
  search_events(data) {
    if (data.events.length === 0) return `No events found. ${data.noResultsReason ?? ''}`.trim();
    const shown = data.events.slice(0, EVENTS_IN_TEXT).map(eventFacts).join('; ');
    const more = data.total > EVENTS_IN_TEXT ? ` (${data.total} in all; page ${data.page})` : '';
    return `Found ${data.total} event${data.total === 1 ? '' : 's'}${more}: ${shown}.`;
  },
  get_event_details(data) {
    const { event } = data;
    const yours = [event.saved ? 'saved by this person' : '', event.registered ? 'this person is registered' : ''].filter(Boolean).join(', ');
    return `${eventFacts(event)}; of ${event.capacity} places.${yours ? ` ${capitalized(yours)}.` : ''}`;
  },
  save_event(data) {
    return data.alreadySaved
      ? `"${data.event.title}" [${data.event.id}] was already in the saved list; nothing changed.`
      : `Saved "${data.event.title}" [${data.event.id}] to the person's saved list.`;
  },
  prepare_event_registration(data) {
    const { event, form } = data;
    const who = form.name ? ` for ${form.name}` : '';
    const email = form.emailProvided ? ' with the e-mail given' : ' without an e-mail (the person adds it)';
    return `Prepared a registration${who}${email} for "${event.title}" [${event.id}] on ${event.startsAt}; ${event.remainingCapacity} places left. No one is registered yet.`;
  },
  prepare_registration_cancellation(data) {
    const { registration } = data;
    return `Prepared the cancellation of registration ${registration.id} for "${registration.event.title}" on ${registration.event.startsAt}. Nothing is cancelled yet.`;
  },
};

function eventFacts(event: EventSummary): string {
  const price = event.fee ? `${event.fee.amount} ${event.fee.currency}` : 'free';
  return `"${event.title}" [${event.id}], ${event.startsAt} at ${event.venue}, ${price}, ${event.remainingCapacity} places left (${event.state})`;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
