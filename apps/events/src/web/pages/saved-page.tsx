/**
 * @module
 * `/saved`: the session's saved events, as the server rendered them, each
 * with a link to its details and Remove (`DELETE /api/saved/:event_id`,
 * `api.unsaveEvent`), which takes the card away once the server agrees.
 */
import { useRef, useState } from 'preact/hooks';
import type { EventSummary } from '../api-shapes.ts';
import { EventCard } from '../components/event-card.tsx';
import type { SavedPageData } from '../page-data.ts';
import { useEnhanced, useLeaveSignal, useNextCommit, usePageSite, useRouteControls, useSingleFlight } from '../page-hooks.ts';
import { textLang } from '../text-language.ts';

/** What the last Remove came to. */
type RemoveOutcome = { kind: 'removed'; event: EventSummary } | { kind: 'failed'; message: string };

/**
 * The saved events page. After a removal the status message takes focus
 * (the Remove button pressed is gone); a refusal leaves the card and says why.
 */
export function SavedPage({ data }: { data: SavedPageData }) {
  const site = usePageSite();
  const enhanced = useEnhanced();
  const leave = useLeaveSignal();
  const committed = useNextCommit();
  const [events, setEvents] = useState(data.events);
  const [removing, setRemoving] = useState<ReadonlySet<string>>(() => new Set());
  const [outcome, setOutcome] = useState<RemoveOutcome | null>(null);
  const removedMessage = useRef<HTMLParagraphElement | null>(null);
  const once = useSingleFlight();
  useRouteControls('saved', {});

  async function remove(event: EventSummary): Promise<void> {
    setRemoving((ids) => new Set(ids).add(event.id));
    const answer = await site.api.unsaveEvent(event.id);
    if (leave.aborted) return;
    setRemoving((ids) => new Set([...ids].filter((id) => id !== event.id)));
    if (!answer.ok) {
      setOutcome({ kind: 'failed', message: answer.error.message });
      return;
    }
    setEvents((shown) => shown.filter((candidate) => candidate.id !== event.id));
    setOutcome({ kind: 'removed', event });
    await committed();
    removedMessage.current?.focus();
  }

  return (
    <>
      <h1>Saved events</h1>
      <div role="status">
        {outcome?.kind === 'removed' && (
          <p class="message message-success" data-testid="saved-status" tabIndex={-1} ref={removedMessage}>
            <span lang={textLang(outcome.event.title)}>{outcome.event.title}</span> was removed from your saved events.
          </p>
        )}
      </div>
      <div role="alert">
        {outcome?.kind === 'failed' && (
          <p class="message message-error" data-testid="saved-error">
            {outcome.message}
          </p>
        )}
      </div>
      <ul class="event-list" data-testid="saved-list">
        {events.map((event) => (
          <EventCard
            key={event.id}
            event={event}
            testId="saved-item"
            heading="h2"
            actions={
              <button
                type="button"
                class="button button-small"
                data-testid="remove-button"
                disabled={!enhanced || removing.has(event.id)}
                // One removal per event at a time; another event's Remove is not held up.
                onClick={() => void once(() => remove(event), event.id)}
              >
                Remove
                <span class="visually-hidden">
                  {' '}
                  <span lang={textLang(event.title)}>{event.title}</span> from saved events
                </span>
              </button>
            }
          />
        ))}
      </ul>
      {events.length === 0 && (
        <p class="empty" data-testid="saved-empty">
          You have not saved any events yet. <a href="/events">Find an event</a>
        </p>
      )}
    </>
  );
}
