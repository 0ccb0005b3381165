/**
 * @module The sentence of key facts each Events tool states in the text
 * content of its MCP results (title, date, venue, places left), for clients
 * whose model sees the text rather than `structuredContent`: every event of a
 * search page, so nothing is seen only in one of the two. Titles, venues and
 * summaries are the organisers' words: they arrive here already quoted as JSON
 * strings (agentready/mcp quotes every `untrustedText` field), so they are
 * written without quotes of our own.
 */
import type { ResultDescriptions } from 'agentready/mcp';
import type { EventSummary } from '../domain/event-shapes.ts';
import type { eventsCatalog } from './catalog.ts';

type EventsTool = (typeof eventsCatalog.tools)[number];

/**
 * The facts of each Events tool's `data`, so a model that reads only the text
 * knows what `structuredContent` says; the MCP adapter adds the target, the
 * next tools and where the person finishes.
 */
export const eventsResultDescriptions: ResultDescriptions<EventsTool> = {
  search_events(data) {
    if (data.events.length === 0) return `No events found. ${data.noResultsReason ?? ''}`.trim();
    const first = (data.page - 1) * data.pageSize + 1;
    const last = first + data.events.length - 1;
    const more = last < data.total || !data.totalExact ? ` For more, call search_events again with the same filters and page ${data.page + 1}.` : '';
    const counted = data.totalExact ? String(data.total) : `more than ${data.total.toLocaleString('en')}`;
    const found = data.totalExact ? count(data.total, 'event') : `${counted} events`;
    const order = data.order === 'relevance' ? 'relevance order, best match first' : 'start_time order, by start time';
    return `Found ${found} (${first} to ${last} of ${counted}, in ${order}; page ${data.page}, ${data.pageSize} a page): ${data.events.map(eventFacts).join('; ')}.${more}`;
  },
  get_event_details(data) {
    const { event } = data;
    const yours = [
      event.saved ? 'saved by this person' : 'not saved by this person',
      event.registered ? 'this person is registered' : 'this person is not registered',
    ];
    return `${eventFacts(event)}, capacity ${event.capacity}. Summary: ${event.summary}. ${capitalized(yours.join(', '))}.`;
  },
  save_event(data) {
    return data.alreadySaved
      ? `${data.event.title} [${data.event.id}] was already in the saved list; nothing changed.`
      : `Saved ${data.event.title} [${data.event.id}] to the person's saved list.`;
  },
  prepare_event_registration(data) {
    const { event, form, draft } = data;
    // The name is the caller's words: quoted, so it reads as one value whatever it holds.
    const who = form.name ? ` for ${JSON.stringify(form.name)}` : ' without a name (the person adds it)';
    const email = form.emailProvided ? ' with the e-mail given' : ' without an e-mail (the person adds it)';
    return `Prepared a registration${who}${email} for ${event.title} [${event.id}] on ${event.startsAt}; ${count(event.remainingCapacity, 'place')} left. Stored as draft ${draft.id}, version ${draft.version}: the person confirms exactly that version. No one is registered yet. The form awaits the person.`;
  },
  prepare_registration_cancellation(data) {
    const { registration } = data;
    const { event } = registration;
    return (
      `Prepared the cancellation of registration ${registration.id} (made ${registration.registeredAt}) for ${event.title} [${event.id}] on ${event.startsAt}. ` +
      `What confirming does: ${data.consequence} Nothing is cancelled yet.`
    );
  },
};

/** Every fact of an event as lists show it: the text states what the structured result holds. */
function eventFacts(event: EventSummary): string {
  const price = event.fee ? `paid, ${event.fee.amount} ${event.fee.currency}` : 'free';
  return (
    `${event.title} [${event.id}], ${event.startsAt} to ${event.endsAt} at ${event.venue} (${event.location}), ${price}, ${event.level}, ` +
    `${count(event.remainingCapacity, 'place')} left, registration until ${event.registrationDeadline} (${event.state})` +
    (event.topics.length > 0 ? `, topics ${event.topics.join(', ')}` : '')
  );
}

function count(amount: number, noun: string): string {
  return `${amount} ${noun}${amount === 1 ? '' : 's'}`;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
