/**
 * @module
 * One event's full details with its Save button and Register link: the body
 * of the /events/:id page and of the details panel on /events.
 */
import type { EventDetail } from './api-shapes.ts';
import { el } from './dom-elements.ts';
import { eventPath } from './event-card.ts';
import type { EventsApi } from './events-api.ts';
import {
  formatDateRange,
  formatDateTime,
  formatLevel,
  formatLocation,
  formatPrice,
  formatState,
} from './event-format.ts';

/** A rendered details block. */
export type EventDetailsView = {
  element: HTMLElement;
  /** Shows the Save button as "Saved" (pressed, disabled). */
  markSaved(): void;
};

/** Options of {@link renderEventDetails}. */
export type EventDetailsOptions = {
  api: EventsApi;
  /** `h1` on the event's own page, `h2` in the panel. */
  heading: 'h1' | 'h2';
};

/** The path of an event's registration page. */
export function registerPath(eventId: string): string {
  return `${eventPath(eventId)}/register`;
}

/**
 * Renders the details. Save posts `POST /api/saved` and turns the button
 * into "Saved"; its failure is shown in `data-testid="save-error"`. Register
 * is a link while the event is open and not yet registered, and a disabled
 * text saying why otherwise.
 */
export function renderEventDetails(event: EventDetail, options: EventDetailsOptions): EventDetailsView {
  const saveError = el('p', { className: 'message message-error', testId: 'save-error', attrs: { role: 'alert', hidden: true } });
  const saveButton = el('button', { className: 'button', testId: 'save-button', attrs: { type: 'button' } }, ['Save']);

  function markSaved(): void {
    saveButton.textContent = 'Saved';
    saveButton.disabled = true;
    saveButton.setAttribute('aria-pressed', 'true');
    saveError.hidden = true;
  }

  saveButton.addEventListener('click', async function saveEvent() {
    saveButton.disabled = true;
    saveError.hidden = true;
    const answer = await options.api.saveEvent(event.id);
    if (answer.ok) {
      markSaved();
    } else {
      saveButton.disabled = false;
      saveError.textContent = answer.error.message;
      saveError.hidden = false;
    }
  });
  if (event.saved) markSaved();

  const facts = el('dl', { className: 'facts' }, [
    ...fact('When', el('time', { attrs: { datetime: event.startsAt } }, [formatDateRange(event.startsAt, event.endsAt)])),
    ...fact('Where', `${event.venue}, ${formatLocation(event.location)}`),
    ...fact('Price', el('span', { testId: 'event-price' }, [formatPrice(event)])),
    ...fact('Level', formatLevel(event.level)),
    ...fact(
      'Places left',
      el('span', { testId: 'places-left', attrs: { 'data-remaining': String(event.remainingCapacity) } }, [
        `${event.remainingCapacity} of ${event.capacity}`,
      ]),
    ),
    ...fact(
      'Register by',
      el('time', { attrs: { datetime: event.registrationDeadline } }, [formatDateTime(event.registrationDeadline)]),
    ),
  ]);

  const element = el('article', { className: 'event-details', testId: 'event-details' }, [
    el(options.heading, { className: 'details-title', testId: 'event-title' }, [event.title]),
    el('p', { className: `state state-${event.state}`, testId: 'event-state' }, [formatState(event.state)]),
    facts,
    el('p', { className: 'summary', testId: 'event-summary' }, [event.summary]),
    el('div', { className: 'actions' }, [saveButton, registerAction(event)]),
    saveError,
  ]);
  element.dataset['eventId'] = event.id;
  return { element, markSaved };
}

function fact(term: string, value: Node | string): [HTMLElement, HTMLElement] {
  return [el('dt', {}, [term]), el('dd', {}, [value])];
}

function registerAction(event: EventDetail): HTMLElement {
  if (event.state === 'open' && !event.registered) {
    return el('a', { className: 'button button-primary', testId: 'register-link', attrs: { href: registerPath(event.id) } }, [
      'Register',
    ]);
  }
  const reason = event.registered
    ? 'You are registered'
    : event.state === 'full'
      ? 'Full: no places left'
      : 'Registration closed';
  const disabled = el('span', { className: 'button button-disabled', testId: 'register-link', attrs: { 'aria-disabled': 'true' } }, [
    reason,
  ]);
  if (!event.registered) return disabled;
  return el('span', { className: 'registered-note' }, [disabled, ' ', el('a', { attrs: { href: '/registrations' } }, ['See my registrations'])]);
}
