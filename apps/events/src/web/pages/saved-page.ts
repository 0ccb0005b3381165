/**
 * @module
 * `/saved`: the session's saved events, each with a link to its details and Remove.
 */
import type { EventSummary } from '../api-shapes.ts';
import { el } from '../dom-elements.ts';
import { renderEventCard } from '../event-card.ts';
import type { PageContext } from '../page-context.ts';
import type { NoControls } from '../page-controls.ts';

/** Renders the page and loads the list; Remove is `DELETE /api/saved/:event_id` and takes the card away. */
export function renderSavedPage(context: PageContext): NoControls {
  const { api, root, signal } = context;
  context.setTitle('Saved events');

  const list = el('ul', { className: 'event-list', testId: 'saved-list', attrs: { 'aria-busy': 'true' } });
  const empty = el('p', { className: 'empty', testId: 'saved-empty', attrs: { hidden: true } }, [
    'You have not saved any events yet. ',
    el('a', { attrs: { href: '/events' } }, ['Find an event']),
  ]);
  const status = el('p', { className: 'message message-success', testId: 'saved-status', attrs: { role: 'status', hidden: true } });
  const failure = el('p', { className: 'message message-error', testId: 'saved-error', attrs: { role: 'alert', hidden: true } });
  root.append(el('h1', {}, ['Saved events']), status, failure, list, empty);

  function card(event: EventSummary): HTMLLIElement {
    const removeButton = el('button', {
      className: 'button button-small',
      testId: 'remove-button',
      attrs: { type: 'button', 'aria-label': `Remove ${event.title} from saved events` },
    }, ['Remove']);
    const item = renderEventCard(event, { testId: 'saved-item', heading: 'h2', actions: [removeButton] });
    removeButton.addEventListener('click', async function removeSaved() {
      removeButton.disabled = true;
      const answer = await api.unsaveEvent(event.id);
      if (signal.aborted) return;
      if (!answer.ok) {
        removeButton.disabled = false;
        status.hidden = true;
        failure.textContent = answer.error.message;
        failure.hidden = false;
        return;
      }
      item.remove();
      failure.hidden = true;
      status.textContent = `${event.title} was removed from your saved events.`;
      status.hidden = false;
      empty.hidden = list.children.length > 0;
    });
    return item;
  }

  void (async () => {
    try {
      const answer = await api.listSaved(signal);
      if (signal.aborted) return;
      list.removeAttribute('aria-busy');
      if (!answer.ok) {
        failure.textContent = answer.error.message;
        failure.hidden = false;
        return;
      }
      list.replaceChildren(...answer.data.events.map(card));
      empty.hidden = answer.data.events.length > 0;
    } catch {
      // Aborted: the route was left.
    }
  })();

  return {};
}
