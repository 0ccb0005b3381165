/**
 * @module
 * `/events/:id/register`: name and e-mail, then a review of what will be
 * sent, then Submit, which is the person's confirmation: it mints a
 * `register` intent and posts the registration with it. When an agent
 * prepared this registration (`prepareEventRegistration`, tools/catalog.ts, whose
 * `confirmationUrl` is this page), the empty form opens filled with its draft.
 */
import type { EventDetail, RegistrationDraft } from '../api-shapes.ts';
import { el } from '../dom-elements.ts';
import { eventPath } from '../event-card.ts';
import { formatDateRange, formatPrice } from '../event-format.ts';
import type { PageContext } from '../page-context.ts';
import type { RegisterControls } from '../page-controls.ts';

/**
 * Renders the registration page. The form is on screen at once (so it can be
 * filled while the event loads); Review is enabled once the event is known to
 * be open and not already registered by this session. The session's
 * registration draft (`GET /api/events/:id/registration-draft`) is loaded
 * alongside: once the event is known to be open, a form still empty is filled
 * with it and a notice says an agent prepared it. Nothing is sent until the
 * person reviews and presses Submit.
 */
export function renderRegisterPage(context: PageContext): RegisterControls {
  const { api, root, signal } = context;
  const eventId = context.params['id'] ?? '';
  context.setTitle('Register');
  let event: EventDetail | null = null;
  // What the review step shows, and so what Submit sends; null while the form step is showing.
  let reviewed: { name: string; email: string } | null = null;

  const eventLine = el('p', { className: 'register-event', testId: 'register-event' }, ['Loading event…']);
  const unavailable = el('p', { className: 'message message-warning', testId: 'register-unavailable', attrs: { role: 'status', hidden: true } });
  const preparedNotice = el('p', { className: 'message', testId: 'register-prepared', attrs: { role: 'status', hidden: true } }, [
    'Prepared by your agent. Check the details, then review and submit.',
  ]);

  const nameInput = el('input', {
    testId: 'register-name',
    attrs: { id: 'register-name', name: 'name', type: 'text', autocomplete: 'name', required: true },
  });
  const emailInput = el('input', {
    testId: 'register-email',
    attrs: { id: 'register-email', name: 'email', type: 'email', autocomplete: 'email', required: true, maxlength: '254' },
  });
  const reviewButton = el('button', {
    className: 'button button-primary',
    testId: 'review-button',
    attrs: { type: 'submit', disabled: true },
  }, ['Review']);
  const form = el('form', { className: 'register-form', testId: 'register-form' }, [
    el('div', { className: 'field' }, [el('label', { attrs: { for: 'register-name' } }, ['Name']), nameInput]),
    el('div', { className: 'field' }, [el('label', { attrs: { for: 'register-email' } }, ['E-mail']), emailInput]),
    el('div', { className: 'form-actions' }, [reviewButton]),
  ]);

  const reviewList = el('dl', { className: 'facts', testId: 'review-details' });
  const backButton = el('button', { className: 'button', testId: 'back-button', attrs: { type: 'button' } }, ['Back']);
  const submitButton = el('button', { className: 'button button-primary', testId: 'submit-button', attrs: { type: 'button' } }, [
    'Submit registration',
  ]);
  const review = el('section', { className: 'register-review', testId: 'register-review', attrs: { 'aria-labelledby': 'review-heading', hidden: true } }, [
    el('h2', { attrs: { id: 'review-heading', tabindex: '-1' } }, ['Check before you submit']),
    el('p', {}, ['This is what will be sent. Submitting takes one place at the event.']),
    reviewList,
    el('div', { className: 'form-actions' }, [backButton, submitButton]),
  ]);

  const success = el('div', { className: 'message message-success', testId: 'register-success', attrs: { role: 'status', hidden: true } });
  const failure = el('p', { className: 'message message-error', testId: 'register-error', attrs: { role: 'alert', hidden: true } });

  root.append(
    el('p', { className: 'back-link' }, [el('a', { attrs: { href: eventPath(eventId) } }, ['← Event details'])]),
    el('h1', {}, ['Register']),
    eventLine,
    unavailable,
    preparedNotice,
    form,
    review,
    failure,
    success,
  );

  function showFormStep(): void {
    reviewed = null;
    review.hidden = true;
    form.hidden = false;
  }

  form.addEventListener('submit', function showReview(submitEvent) {
    submitEvent.preventDefault();
    if (event === null || reviewButton.disabled || !form.reportValidity()) return;
    reviewed = { name: nameInput.value.trim(), email: emailInput.value.trim() };
    reviewList.replaceChildren(
      ...reviewFact('Event', event.title),
      ...reviewFact('When', formatDateRange(event.startsAt, event.endsAt)),
      ...reviewFact('Price', formatPrice(event)),
      ...reviewFact('Name', reviewed.name),
      ...reviewFact('E-mail', reviewed.email),
    );
    failure.hidden = true;
    form.hidden = true;
    review.hidden = false;
    submitButton.focus();
  });

  backButton.addEventListener('click', function backToForm() {
    failure.hidden = true;
    showFormStep();
    nameInput.focus();
  });

  submitButton.addEventListener('click', async function submitRegistration() {
    if (event === null || reviewed === null) return;
    const registeringFor = event;
    submitButton.disabled = true;
    backButton.disabled = true;
    failure.hidden = true;
    // Exactly what the person reviewed, whatever the (hidden) inputs hold by now.
    const answer = await api.register({ eventId, ...reviewed });
    if (signal.aborted) return;
    submitButton.disabled = false;
    backButton.disabled = false;
    if (!answer.ok) {
      failure.textContent = answer.error.message;
      failure.hidden = false;
      return;
    }
    review.hidden = true;
    form.hidden = true;
    preparedNotice.hidden = true;
    success.replaceChildren(
      el('p', {}, [`You are registered for ${answer.data.registration.event.title || registeringFor.title}.`]),
      el('p', {}, [el('a', { testId: 'registrations-link', attrs: { href: '/registrations' } }, ['See my registrations'])]),
    );
    success.hidden = false;
  });

  /** Fills the form with an agent's draft, unless the person (or the page's own tool) already put something in it. */
  function applyDraft(draft: RegistrationDraft): void {
    if (nameInput.value !== '' || emailInput.value !== '') return;
    if (draft.name === null && draft.email === null) return;
    if (draft.name !== null) nameInput.value = draft.name;
    if (draft.email !== null) emailInput.value = draft.email;
    preparedNotice.hidden = false;
  }

  // Asked for at once, applied only once the event is known to take a registration.
  const draftLoaded = api.getRegistrationDraft(eventId, signal).then(
    (answer) => (answer.ok ? answer.data.draft : null),
    () => null,
  );

  const loaded = (async (): Promise<EventDetail | null> => {
    try {
      const answer = await api.getEvent(eventId, signal);
      if (signal.aborted) return null;
      if (!answer.ok) {
        eventLine.textContent = answer.error.message;
        eventLine.classList.add('message', 'message-error');
        form.hidden = true;
        return null;
      }
      event = answer.data.event;
      context.setTitle(`Register: ${event.title}`);
      eventLine.replaceChildren(
        el('a', { attrs: { href: eventPath(event.id) } }, [event.title]),
        el('br'),
        el('time', { attrs: { datetime: event.startsAt } }, [formatDateRange(event.startsAt, event.endsAt)]),
      );
      const reason = unavailableReason(event);
      if (reason === null) {
        reviewButton.disabled = false;
        const draft = await draftLoaded;
        if (signal.aborted) return null;
        if (draft !== null) applyDraft(draft);
      } else {
        unavailable.textContent = reason;
        unavailable.hidden = false;
      }
      return event;
    } catch {
      return null;
    }
  })();

  return {
    eventId,
    ready: () => loaded,
    fillForm(values) {
      if (values.name !== undefined) nameInput.value = values.name;
      if (values.email !== undefined) emailInput.value = values.email;
      if (!success.hidden) return;
      failure.hidden = true;
      showFormStep();
      reviewButton.focus();
    },
  };
}

function unavailableReason(event: EventDetail): string | null {
  if (event.registered) return 'You are already registered for this event.';
  if (event.state === 'full') return 'This event is full: there are no places left.';
  if (event.state === 'closed') return 'Registration for this event has closed.';
  return null;
}

function reviewFact(term: string, value: string): [HTMLElement, HTMLElement] {
  return [el('dt', {}, [term]), el('dd', {}, [value])];
}
