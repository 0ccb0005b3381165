/**
 * @module How the Events tools state an event's facts in their result text:
 * title, times, venue, price, level, places left, deadline, state and topics,
 * so a model that reads only the text knows what `structuredContent` says.
 * Titles and venues are the organisers' words: they arrive already quoted as
 * JSON strings (the MCP surface quotes every `untrustedText` field), so they
 * are written without quotes of our own.
 */
import type { EventSummary } from '../domain/event-shapes.ts';
import { count } from './events-tool.ts';

/** Every fact of an event as lists show it. */
export function eventFacts(event: EventSummary): string {
  const price = event.fee ? `paid, ${event.fee.amount} ${event.fee.currency}` : 'free';
  return (
    `${event.title} [${event.id}], ${event.startsAt} to ${event.endsAt} at ${event.venue} (${event.location}), ${price}, ${event.level}, ` +
    `${count(event.remainingCapacity, 'place')} left, registration until ${event.registrationDeadline} (${event.state})` +
    (event.topics.length > 0 ? `, topics ${event.topics.join(', ')}` : '')
  );
}
