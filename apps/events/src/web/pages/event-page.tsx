/**
 * @module
 * `/events/:id`: one event's details, with Save and Register, or why there
 * is no such event.
 */
import { useState } from 'preact/hooks';
import type { EventDetail } from '../api-shapes.ts';
import { EventDetails } from '../components/event-details.tsx';
import { EventMissing } from '../components/event-missing.tsx';
import type { EventPageData } from '../page-data.ts';
import { useLatest, useNextCommit, useRouteControls } from '../page-hooks.ts';

/**
 * The event page. Its controls (page-controls.ts, `EventControls`) let a
 * tool put fresher details on screen and mark the event saved.
 */
export function EventPage({ data }: { data: EventPageData }) {
  const [event, setEvent] = useState<EventDetail | null>(data.event);
  const latest = useLatest(event);
  const committed = useNextCommit();

  useRouteControls('event', {
    eventId: data.eventId,
    eventMissing: data.error?.code === 'NOT_FOUND',
    ready: () => Promise.resolve(latest.current),
    async showEventDetails(shown) {
      if (shown.id !== data.eventId) return;
      setEvent(shown);
      await committed();
    },
    async markSaved() {
      setEvent((current) => (current === null ? current : { ...current, saved: true }));
      await committed();
    },
  });

  return (
    <>
      <p class="back-link">
        <a href="/events">← All events</a>
      </p>
      {event !== null ? (
        <div class="event-page-body">
          <EventDetails event={event} heading="h1" />
        </div>
      ) : (
        <div class="event-page-body">
          <EventMissing error={data.error} testId="event-error" />
        </div>
      )}
    </>
  );
}
