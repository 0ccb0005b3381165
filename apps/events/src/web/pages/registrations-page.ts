/**
 * @module
 * `/registrations`: the session's active registrations. Cancel asks first, in
 * a `<dialog>` that says what will happen; confirming is the person's click
 * that mints the `cancel` intent. `/registrations?cancel=<registration_id>`
 * (the `confirmationUrl` of `prepareRegistrationCancellation`, tools/catalog.ts) opens that
 * dialog for the registration once the list is loaded.
 */
import type { Registration } from '../api-shapes.ts';
import { el } from '../dom-elements.ts';
import { renderEventCard } from '../event-card.ts';
import { formatDateRange, formatDateTime } from '../event-format.ts';
import type { PageContext } from '../page-context.ts';
import type { RegistrationsControls } from '../page-controls.ts';

/** The query parameter naming the registration whose cancel dialog the page opens with. */
const CANCEL_PARAMETER = 'cancel';

/**
 * Renders the page and loads the list. After a cancellation (or its failure)
 * the list is loaded again, so it always shows what the server holds.
 *
 * With `?cancel=<registration_id>`, the first load is followed by the same
 * dialog the Cancel… button and the WebMCP tool open, for that registration;
 * one that is not among the session's active registrations gets a short
 * notice and no dialog. Either way the parameter is then dropped from the URL
 * (replaced, not pushed), so a reload or a return to this entry opens nothing;
 * only when the list failed to load does it stay, for a reload to try again.
 */
export function renderRegistrationsPage(context: PageContext): RegistrationsControls {
  const { api, root, signal } = context;
  context.setTitle('My registrations');
  const requestedCancellation = context.query.get(CANCEL_PARAMETER);
  let listed: Registration[] = [];
  let pending: Registration | null = null;

  const list = el('ul', { className: 'event-list', testId: 'registrations-list', attrs: { 'aria-busy': 'true' } });
  const empty = el('p', { className: 'empty', testId: 'registrations-empty', attrs: { hidden: true } }, [
    'You have no active registrations. ',
    el('a', { attrs: { href: '/events' } }, ['Find an event']),
  ]);
  const loadError = el('p', { className: 'message message-error', testId: 'registrations-error', attrs: { role: 'alert', hidden: true } });
  const cancelSuccess = el('p', { className: 'message message-success', testId: 'cancel-success', attrs: { role: 'status', hidden: true } });
  const cancelError = el('p', { className: 'message message-error', testId: 'cancel-error', attrs: { role: 'alert', hidden: true } });
  const cancelRequestUnknown = el('p', { className: 'message message-warning', testId: 'cancel-request-unknown', attrs: { role: 'status', hidden: true } }, [
    'The registration this link asks to cancel is not one of your active registrations, so there is nothing to cancel.',
  ]);

  const dialogText = el('p', { testId: 'cancel-dialog-text' });
  const keepButton = el('button', { className: 'button', testId: 'dialog-keep', attrs: { type: 'button' } }, ['Keep my registration']);
  const confirmButton = el('button', { className: 'button button-danger', testId: 'dialog-confirm-cancel', attrs: { type: 'button' } }, [
    'Cancel registration',
  ]);
  const dialog = el('dialog', { className: 'confirm-dialog', testId: 'cancel-dialog', attrs: { 'aria-labelledby': 'cancel-dialog-title' } }, [
    el('h2', { attrs: { id: 'cancel-dialog-title' } }, ['Cancel this registration?']),
    dialogText,
    el('p', {}, ['Your place will be released and you will need to register again to get one.']),
    el('div', { className: 'form-actions' }, [keepButton, confirmButton]),
  ]);

  root.append(el('h1', {}, ['My registrations']), cancelRequestUnknown, cancelSuccess, cancelError, loadError, list, empty, dialog);

  keepButton.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', function forgetPending() {
    // The browser fires `close` later, as a task: by then the dialog may be open again, for the pending one.
    if (!dialog.open) pending = null;
  });

  confirmButton.addEventListener('click', async function cancelRegistration() {
    const target = pending;
    if (target === null) return;
    keepButton.disabled = true;
    confirmButton.disabled = true;
    const answer = await api.cancelRegistration(target.id);
    keepButton.disabled = false;
    confirmButton.disabled = false;
    if (signal.aborted) return;
    dialog.close();
    if (answer.ok) {
      cancelError.hidden = true;
      cancelSuccess.textContent = `Your registration for ${target.event.title} (${formatDateRange(target.event.startsAt, target.event.endsAt)}) was cancelled.`;
      cancelSuccess.hidden = false;
    } else {
      cancelSuccess.hidden = true;
      cancelError.textContent = answer.error.message;
      cancelError.hidden = false;
    }
    cancelRequestUnknown.hidden = true;
    loading = load();
    await loading;
  });

  function render(registrations: Registration[]): void {
    listed = registrations;
    list.replaceChildren(
      ...registrations.map((registration) => {
        const card = renderEventCard(registration.event, {
          testId: 'registration',
          heading: 'h2',
          notes: [
            el('p', { className: 'card-note' }, [
              'Registered on ',
              el('time', { attrs: { datetime: registration.registeredAt } }, [formatDateTime(registration.registeredAt)]),
            ]),
          ],
          actions: [
            el('button', {
              className: 'button button-small',
              testId: 'cancel-button',
              attrs: { type: 'button', 'aria-label': `Cancel registration for ${registration.event.title}` },
              on: { click: () => openCancelDialog(registration.id) },
            }, ['Cancel…']),
          ],
        });
        card.dataset['registrationId'] = registration.id;
        return card;
      }),
    );
    empty.hidden = registrations.length > 0;
    list.removeAttribute('aria-busy');
  }

  /** Loads and renders the list; true when the list on screen is now the server's. */
  async function load(): Promise<boolean> {
    list.setAttribute('aria-busy', 'true');
    try {
      const answer = await api.listRegistrations(signal);
      if (signal.aborted) return false;
      if (answer.ok) {
        loadError.hidden = true;
        render(answer.data.registrations);
        return true;
      }
      list.removeAttribute('aria-busy');
      loadError.textContent = answer.error.message;
      loadError.hidden = false;
      return false;
    } catch {
      // Aborted: the route was left.
      return false;
    }
  }

  /** The first load, then the dialog `?cancel=` asked for (see {@link renderRegistrationsPage}). */
  async function loadAndOpenRequestedCancellation(): Promise<void> {
    const listedNow = await load();
    // A list that failed to load says so itself; the parameter stays, so a reload tries again.
    if (requestedCancellation === null || !listedNow || signal.aborted) return;
    context.replaceQuery(withoutCancelParameter(context.query));
    if (!openCancelDialog(requestedCancellation)) cancelRequestUnknown.hidden = false;
  }

  function openCancelDialog(registrationId: string): boolean {
    // An open dialog is the person's to answer: it is never closed and reopened, nor pointed at another registration.
    if (dialog.open) return pending?.id === registrationId;
    const registration = listed.find((candidate) => candidate.id === registrationId);
    if (registration === undefined || signal.aborted) return false;
    pending = registration;
    dialogText.replaceChildren(
      'You are about to cancel your registration for ',
      el('strong', {}, [registration.event.title]),
      ` on ${formatDateRange(registration.event.startsAt, registration.event.endsAt)}.`,
    );
    dialog.showModal();
    keepButton.focus();
    return true;
  }

  let loading: Promise<unknown> = loadAndOpenRequestedCancellation();

  return {
    async ready() {
      // Wait for the latest load (the first, or the one after a cancellation), then answer what is on screen.
      await loading;
      return listed;
    },
    openCancelDialog,
    cancelDialogTarget: () => (dialog.open && pending !== null ? pending.id : null),
  };
}

function withoutCancelParameter(query: URLSearchParams): URLSearchParams {
  const rest = new URLSearchParams(query);
  rest.delete(CANCEL_PARAMETER);
  return rest;
}
