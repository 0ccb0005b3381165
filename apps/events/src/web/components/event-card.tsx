/**
 * @module
 * One event as a card in a list (search results, saved events, registrations):
 * its title links to the details page.
 */
import type { ComponentChildren } from 'preact';
import type { EventSummary } from '../api-shapes.ts';
import { formatDateRange, formatLevel, formatLocation, formatPlacesLeft, formatPrice, formatState } from '../event-format.ts';
import { eventPath } from '../routes.ts';
import { textLang } from '../text-language.ts';
import { topicNames } from '../topic-names.ts';

/** Props of {@link EventCard}. */
export type EventCardProps = {
  event: EventSummary;
  /** `data-testid` of the card. */
  testId: string;
  /** The registration the card stands for (the registrations page), as `data-registration-id`. */
  registrationId?: string;
  /** Heading element of the title. Default: `h3`. */
  heading?: 'h2' | 'h3';
  /** Lines shown under the facts (e.g. "Registered on …"). */
  notes?: ComponentChildren;
  /** Buttons shown at the bottom. */
  actions?: ComponentChildren;
};

/**
 * A card `<li>` carrying `data-event-id` (and `data-registration-id` when
 * given), with the title as a link (`data-testid="event-link"`) to the event's page.
 */
export function EventCard({ event, testId, registrationId, heading: Heading = 'h3', notes, actions }: EventCardProps) {
  return (
    <li class="event-card" data-testid={testId} data-event-id={event.id} data-registration-id={registrationId}>
      <Heading class="card-title">
        <a data-testid="event-link" href={eventPath(event.id)} lang={textLang(event.title)}>
          {event.title}
        </a>
      </Heading>
      <p class="card-when">
        <time dateTime={event.startsAt}>{formatDateRange(event.startsAt, event.endsAt)}</time>
      </p>
      <p class="card-where">
        <span lang={textLang(event.venue)}>{event.venue}</span> · {formatLocation(event.location)}
      </p>
      <ul class="tags" aria-label="Facts">
        <li class="tag">{formatPrice(event)}</li>
        <li class="tag">{formatLevel(event.level)}</li>
        <li class="tag">{formatPlacesLeft(event.remainingCapacity)}</li>
        <li class={`tag state state-${event.state}`}>{formatState(event.state)}</li>
      </ul>
      {event.topics.length > 0 && (
        <ul class="topics" aria-label="Topics" data-testid="event-topics">
          {event.topics.map((topic) => (
            <TopicTag key={topic} topic={topic} />
          ))}
        </ul>
      )}
      {notes}
      {actions !== undefined && <div class="card-actions">{actions}</div>}
    </li>
  );
}

/** A topic by its English name and, when it differs, its Chinese one marked as Chinese: "Chip design · 晶片設計". */
function TopicTag({ topic }: { topic: string }) {
  const names = Object.hasOwn(topicNames, topic) ? topicNames[topic] : undefined;
  if (names === undefined) return <li class="topic">{topic}</li>;
  const { en, zh } = names;
  return (
    <li class="topic">
      {en}
      {zh !== en && (
        <>
          {' · '}
          <span lang={textLang(zh)}>{zh}</span>
        </>
      )}
    </li>
  );
}
