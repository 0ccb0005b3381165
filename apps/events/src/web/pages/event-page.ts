/**
 * @module
 * `/events/:id`: one event's details, with Save and Register.
 */
import type { EventDetail } from '../api-shapes.ts';
import { el } from '../dom-elements.ts';
import { renderEventDetails, type EventDetailsView } from '../event-details-view.ts';
import type { PageContext } from '../page-context.ts';
import type { EventControls } from '../page-controls.ts';

/**
 * Renders the event page and loads the event. `ready()` resolves with the
 * event once its details are on screen, or null when it does not exist or
 * could not be loaded (the reason is shown in `data-testid="event-error"`).
 */
export function renderEventPage(context: PageContext): EventControls {
  const { api, root, signal } = context;
  const eventId = context.params['id'] ?? '';
  context.setTitle('Event');
  let view: EventDetailsView | null = null;
  let shown: EventDetail | null = null;

  const body = el('div', { className: 'event-page-body', attrs: { 'aria-busy': 'true' } }, [
    el('h1', { className: 'loading' }, ['Loading event…']),
  ]);
  root.append(el('p', { className: 'back-link' }, [el('a', { attrs: { href: '/events' } }, ['← All events'])]), body);

  function showEventDetails(event: EventDetail): void {
    if (event.id !== eventId || signal.aborted) return;
    view = renderEventDetails(event, { api, heading: 'h1' });
    shown = event;
    body.replaceChildren(view.element);
    body.removeAttribute('aria-busy');
    context.setTitle(event.title);
  }

  const loaded = (async (): Promise<EventDetail | null> => {
    try {
      const answer = await api.getEvent(eventId, signal);
      if (signal.aborted) return null;
      // A tool may have put fresher details on screen while this load was under way.
      if (shown !== null) return shown;
      if (answer.ok) {
        showEventDetails(answer.data.event);
        return answer.data.event;
      }
      context.setTitle(answer.error.code === 'NOT_FOUND' ? 'Event not found' : 'Event');
      body.replaceChildren(
        el('h1', {}, [answer.error.code === 'NOT_FOUND' ? 'Event not found' : 'The event could not be loaded']),
        el('p', { className: 'message message-error', testId: 'event-error', attrs: { role: 'alert' } }, [answer.error.message]),
        el('p', {}, [el('a', { attrs: { href: '/events' } }, ['Find another event'])]),
      );
      body.removeAttribute('aria-busy');
      return null;
    } catch {
      return null;
    }
  })();

  return {
    eventId,
    ready: () => loaded,
    showEventDetails,
    markSaved() {
      view?.markSaved();
    },
  };
}
