/**
 * @module
 * One event as a card in a list (search results, saved events, registrations):
 * its title links to the details page.
 */
import type { EventSummary } from './api-shapes.ts';
import { el, type Child } from './dom-elements.ts';
import { formatDateRange, formatLevel, formatLocation, formatPlacesLeft, formatPrice, formatState } from './event-format.ts';

/** What {@link renderEventCard} puts around the event's facts. */
export type EventCardOptions = {
  /** `data-testid` of the card. */
  testId: string;
  /** Heading element of the title. Default: `h3`. */
  heading?: 'h2' | 'h3';
  /** Lines shown under the facts (e.g. "Registered on …"). */
  notes?: readonly Child[];
  /** Buttons shown at the bottom. */
  actions?: readonly Child[];
};

/** The path of an event's details page. */
export function eventPath(eventId: string): string {
  return `/events/${encodeURIComponent(eventId)}`;
}

/**
 * Renders a card `<li>` carrying `data-event-id`, with the title as a link
 * (`data-testid="event-link"`) to the event's page.
 */
export function renderEventCard(event: EventSummary, options: EventCardOptions): HTMLLIElement {
  const heading = el(options.heading ?? 'h3', { className: 'card-title' }, [
    el('a', { testId: 'event-link', attrs: { href: eventPath(event.id) } }, [event.title]),
  ]);
  const card = el('li', { className: 'event-card', testId: options.testId }, [
    heading,
    el('p', { className: 'card-when' }, [
      el('time', { attrs: { datetime: event.startsAt } }, [formatDateRange(event.startsAt, event.endsAt)]),
    ]),
    el('p', { className: 'card-where' }, [`${event.venue} · ${formatLocation(event.location)}`]),
    el('ul', { className: 'tags', attrs: { 'aria-label': 'Facts' } }, [
      el('li', { className: 'tag' }, [formatPrice(event)]),
      el('li', { className: 'tag' }, [formatLevel(event.level)]),
      el('li', { className: 'tag' }, [formatPlacesLeft(event.remainingCapacity)]),
      el('li', { className: `tag state state-${event.state}` }, [formatState(event.state)]),
    ]),
    ...(options.notes ?? []),
    options.actions !== undefined && options.actions.length > 0 ? el('div', { className: 'card-actions' }, options.actions) : null,
  ]);
  card.dataset['eventId'] = event.id;
  return card;
}
