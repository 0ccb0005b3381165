/**
 * @module
 * `/events/:id/register`: name and e-mail, then a review of what will be
 * sent, then Submit, which is the person's confirmation: it asks the site
 * for a confirmation token for what they reviewed and the draft version
 * shown, then commits the registration with it under one idempotency key
 * (`api.register`).
 * The server renders the event, the form (filled with the draft an agent
 * prepared, `prepareEventRegistration` in tools/catalog.ts, whose
 * `confirmationUrl` is this page, with a notice saying so) or why the event
 * takes no registration; the browser's script makes Review and Submit work.
 * A visitor who is not signed in gets "Sign in to register" instead of the
 * form, a link to the sign-in page that comes back here.
 */
import { useEffect, useReducer, useRef, useState } from 'preact/hooks';
import { attendeeFieldProblem } from '../../domain/attendee-field-problems.ts';
import type { ApiFailure } from '../api-client.ts';
import type { EventDetail } from '../api-shapes.ts';
import { EventMissing } from '../components/event-missing.tsx';
import { RegistrationFormStep } from '../components/registration-form-step.tsx';
import { RegistrationReviewStep } from '../components/registration-review-step.tsx';
import { RegistrationSuccess } from '../components/registration-success.tsx';
import { formatDateRange } from '../event-format.ts';
import type { RegisterPageData } from '../page-data.ts';
import { useLatest, useNextCommit, usePageSite, useRouteControls, useSingleFlight, useViewer } from '../page-hooks.ts';
import {
  initialRegisterState,
  registerReducer,
  type AttendeeField,
  type AttendeeValues,
  type FocusRequest,
  type RegisterAction,
  type RegisterState,
} from '../register-form-state.ts';
import type { EventsApi } from '../events-api.ts';
import { eventPath, registerPath, signInPath } from '../routes.ts';
import { textLang } from '../text-language.ts';

const PREPARED_NOTICE = 'Prepared by your agent. Check the details, then review and submit.';

/**
 * The registration page. Its controls (page-controls.ts, `RegisterControls`)
 * let the page tool read the form and fill it, never over what the person
 * typed (register-form-state.ts).
 */
export function RegisterPage({ data }: { data: RegisterPageData }) {
  const [state, dispatch] = useReducer(registerReducer, data.draft, initialRegisterState);
  const latest = useLatest(state);
  const committed = useNextCommit();

  useRouteControls('register', {
    eventId: data.eventId,
    eventMissing: data.error?.code === 'NOT_FOUND',
    ready: () => Promise.resolve(data.event),
    formFields() {
      const { values, sources } = latest.current;
      return {
        name: { value: values.name, typedByPerson: sources.name === 'person' },
        email: { value: values.email, typedByPerson: sources.email === 'person' },
      };
    },
    async fillForm(values, draft) {
      dispatch({ type: 'agent-filled', values, draft });
      await committed();
    },
  });

  if (data.event === null) return <RegisterEventMissing error={data.error} />;
  return <RegisterForEvent event={data.event} state={state} dispatch={dispatch} />;
}

/** Why there is no form: no such event (the server answers 404), or it could not be loaded. */
function RegisterEventMissing({ error }: { error: RegisterPageData['error'] }) {
  return (
    <>
      <p class="back-link">
        <a href="/events">← All events</a>
      </p>
      <EventMissing error={error} testId="register-unavailable" />
    </>
  );
}

/** For a visitor who is not signed in: registering needs an account; the sign-in page brings them back here. */
function SignInToRegister({ eventId }: { eventId: string }) {
  return (
    <p class="message" data-testid="register-sign-in" role="status">
      <a class="button button-primary" href={signInPath(registerPath(eventId))} data-testid="register-sign-in-link">
        Sign in to register
      </a>{' '}
      Registering needs an account, so that your place is yours on every browser you use.
    </p>
  );
}

/** Why this session cannot register for the event now, or null when it can. */
function unavailableReason(event: EventDetail): string | null {
  if (event.registered) return 'You are already registered for this event.';
  if (event.state === 'full') return 'This event is full: there are no places left.';
  if (event.state === 'closed') return 'Registration for this event has closed.';
  return null;
}

/**
 * What the page says when Submit is refused: the site's message, except when
 * the commit found its confirmed draft gone (CONFLICT, `field: "draft_id"`).
 * That happens when another tab of the same person registered with the same
 * draft between this tab's confirmation and its commit (a commit uses the
 * draft up); the event as the site now holds it says why this tab cannot
 * register (already registered, full, closed), which is what the person needs
 * to know. The site's message stands when the event says nothing more or
 * cannot be loaded.
 */
async function refusalMessage(api: EventsApi, eventId: string, refusal: ApiFailure, reviewed: AttendeeValues): Promise<string> {
  // A field's refusal is said in the person's words, not the API's ("Field "name": …").
  if (refusal.code === 'INVALID_INPUT' && (refusal.field === 'name' || refusal.field === 'email')) {
    return (
      attendeeFieldProblem(refusal.field, reviewed[refusal.field]) ??
      `The ${refusal.field === 'name' ? 'name' : 'e-mail address'} was not accepted. Go back and check it.`
    );
  }
  if (refusal.code !== 'CONFLICT' || refusal.field !== 'draft_id') return refusal.message;
  const current = await api.getEvent(eventId);
  return (current.ok ? unavailableReason(current.data.event) : null) ?? refusal.message;
}

type RegisterForEventProps = { event: EventDetail; state: RegisterState; dispatch(action: RegisterAction): void };

/** The page for an event that exists: the event line, then the step on screen, or why registration is unavailable. */
function RegisterForEvent({ event, state, dispatch }: RegisterForEventProps) {
  const site = usePageSite();
  const viewer = useViewer();
  const refs = usePageFocus(state.focus);
  const interactive = useInBrowser();
  const once = useSingleFlight();
  useAdoptEarlyTyping(refs, state, dispatch);
  const { step } = state;
  const reason = step.kind === 'registered' ? null : unavailableReason(event);

  /** Submit: one registration at a time, however fast the clicks (useSingleFlight). */
  async function submit(): Promise<void> {
    if (step.kind !== 'review' || step.submitting) return;
    dispatch({ type: 'submitting' });
    // Exactly what the person reviewed, whatever the (hidden) inputs hold by now.
    // The draft version on screen: the server refuses it if the agent has changed the draft since.
    const answer = await site.api.register({ eventId: event.id, ...step.reviewed, draft: state.draft ?? undefined });
    if (answer.ok) dispatch({ type: 'registered', eventTitle: answer.data.registration.event.title || event.title });
    else dispatch({ type: 'refused', message: await refusalMessage(site.api, event.id, answer.error, step.reviewed) });
  }

  return (
    <>
      <p class="back-link">
        <a href={eventPath(event.id)}>← Event details</a>
      </p>
      <h1>Register</h1>
      <p class="register-event" data-testid="register-event">
        <a href={eventPath(event.id)} lang={textLang(event.title)}>
          {event.title}
        </a>
        <br />
        <time dateTime={event.startsAt}>{formatDateRange(event.startsAt, event.endsAt)}</time>
      </p>
      {reason !== null ? (
        <p class="message message-warning" data-testid="register-unavailable" role="status">
          {reason}
        </p>
      ) : !viewer.signedIn ? (
        <SignInToRegister eventId={event.id} />
      ) : (
        <>
          <div role="status">
            {state.preparedByAgent && step.kind !== 'registered' && (
              <p class="message" data-testid="register-prepared">
                {PREPARED_NOTICE}
                {state.draft && <span data-testid="register-draft-version"> (Draft version {state.draft.version}.)</span>}
              </p>
            )}
          </div>
          <RegistrationFormStep
            values={state.values}
            problems={state.problems}
            shown={step.kind === 'form'}
            interactive={interactive}
            nameRef={refs.name}
            emailRef={refs.email}
            reviewRef={refs['review-button']}
            onType={(field, value) => dispatch({ type: 'person-typed', field, value })}
            onReview={() => dispatch({ type: 'review' })}
          />
          {step.kind === 'review' && (
            <RegistrationReviewStep
              event={event}
              reviewed={step.reviewed}
              submitting={step.submitting}
              error={step.error}
              headingRef={refs['review-heading']}
              errorRef={refs.error}
              onBack={() => dispatch({ type: 'back' })}
              onSubmit={() => void once(submit)}
            />
          )}
          {step.kind === 'registered' && <RegistrationSuccess event={event} eventTitle={step.eventTitle} statusRef={refs.success} />}
        </>
      )}
    </>
  );
}

type FocusRefs = {
  name: { current: HTMLInputElement | null };
  email: { current: HTMLInputElement | null };
  'review-button': { current: HTMLButtonElement | null };
  'review-heading': { current: HTMLHeadingElement | null };
  error: { current: HTMLParagraphElement | null };
  success: { current: HTMLDivElement | null };
};

/**
 * The elements focus can move to, and the effect that moves it where the
 * latest {@link FocusRequest} asks, once it is rendered. Review after an
 * agent's fill is skipped while the person is typing in the form: their
 * cursor stays where it is.
 */
function usePageFocus(request: FocusRequest | null): FocusRefs {
  const refs: FocusRefs = {
    name: useRef(null),
    email: useRef(null),
    'review-button': useRef(null),
    'review-heading': useRef(null),
    error: useRef(null),
    success: useRef(null),
  };
  useEffect(() => {
    if (request === null) return;
    const typing = document.activeElement === refs.name.current || document.activeElement === refs.email.current;
    if (request.target === 'review-button' && typing) return;
    refs[request.target].current?.focus();
  }, [request]);
  return refs;
}

/** False on the server and in the first render in the browser (so both render the same), true once the script runs. */
function useInBrowser(): boolean {
  const [inBrowser, setInBrowser] = useState(false);
  useEffect(() => setInBrowser(true), []);
  return inBrowser;
}

/**
 * Takes in what the person typed before the page's script ran: the
 * server-rendered inputs already hold it, and it becomes theirs.
 */
function useAdoptEarlyTyping(refs: FocusRefs, state: RegisterState, dispatch: (action: RegisterAction) => void): void {
  useEffect(() => {
    for (const field of ['name', 'email'] as const satisfies readonly AttendeeField[]) {
      const shown = refs[field].current?.value;
      if (shown !== undefined && shown !== state.values[field]) dispatch({ type: 'person-typed', field, value: shown });
    }
  }, []);
}
