/**
 * @module
 * `/registrations`: the session's active registrations, as the server
 * rendered them. Cancel… asks first, in the {@link CancelDialog}; confirming
 * there is the person's click that mints the `cancel` intent
 * (`api.cancelRegistration`). After a cancellation, or its failure, the list
 * is loaded again (`api.listRegistrations`), so it shows what the server holds.
 * A visitor who is not signed in is asked to sign in (and come back here).
 *
 * `/registrations?cancel=<registration_id>` (the `confirmationUrl` of
 * `prepareRegistrationCancellation`, tools/catalog.ts) opens that dialog once
 * the page is enhanced. One that is not among the session's active
 * registrations gets a notice instead, already in the server's HTML. Either
 * way the parameter is then dropped from the URL (replaced, not pushed), so a
 * reload or a return to this entry opens nothing.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Registration } from '../api-shapes.ts';
import { CancelDialog } from '../components/cancel-dialog.tsx';
import { EventCard } from '../components/event-card.tsx';
import { formatDateRange, formatDateTime } from '../event-format.ts';
import type { RegistrationsPageData } from '../page-data.ts';
import { useEnhanced, useLatest, useLeaveSignal, useNextCommit, usePageSite, useRouteControls, useSingleFlight, useViewer } from '../page-hooks.ts';
import { signInPath } from '../routes.ts';
import { textLang } from '../text-language.ts';

/** The query parameter naming the registration whose cancel dialog the page opens with. */
const CANCEL_PARAMETER = 'cancel';

/** The list on screen: the last one loaded, whether a reload is running, and why the last reload failed. */
type ListState = { registrations: Registration[]; loading: boolean; error: string | null };

/** What the last confirmed cancellation came to. */
type CancelOutcome = { kind: 'cancelled'; registration: Registration } | { kind: 'failed'; message: string };

/**
 * The registrations page. Its controls (page-controls.ts,
 * `RegistrationsControls`) let the prepare_registration_cancellation tool
 * open the dialog, never confirm it.
 */
export function RegistrationsPage({ data }: { data: RegistrationsPageData }) {
  const site = usePageSite();
  const viewer = useViewer();
  const enhanced = useEnhanced();
  const list = useRegistrationsList(data.registrations);
  const cancellation = useCancellation(list);
  const [requestUnknown, setRequestUnknown] = useState(() => data.cancelId !== null && !isListed(data.registrations, data.cancelId));
  const requestOpened = useRef<Promise<unknown>>(Promise.resolve());

  useEffect(function openRequestedCancellation() {
    if (data.cancelId === null) return;
    const rest = new URLSearchParams(window.location.search);
    rest.delete(CANCEL_PARAMETER);
    site.replaceQuery(rest);
    if (isListed(data.registrations, data.cancelId)) requestOpened.current = cancellation.open(data.cancelId);
  }, []);

  useRouteControls('registrations', {
    signedIn: viewer.signedIn,
    async ready() {
      await requestOpened.current;
      await list.settled.current;
      return list.latest.current.registrations;
    },
    openCancelDialog: cancellation.open,
    cancelDialogTarget: () => cancellation.pending.current?.id ?? null,
  });

  const { registrations, loading, error } = list.state;
  return (
    <>
      <h1>My registrations</h1>
      {requestUnknown && (
        <p class="message message-warning" data-testid="cancel-request-unknown" role="status">
          The registration this link asks to cancel is not one of your active registrations, so there is nothing to cancel.
        </p>
      )}
      <CancelOutcomeMessages outcome={cancellation.outcome} successRef={cancellation.successMessage} />
      {error !== null && (
        <p class="message message-error" data-testid="registrations-error" role="alert">
          {error}
        </p>
      )}
      <ul class="event-list" data-testid="registrations-list" aria-busy={loading ? 'true' : undefined}>
        {registrations.map((registration) => (
          <RegistrationItem key={registration.id} registration={registration} enhanced={enhanced} onCancel={() => void cancellation.open(registration.id)} />
        ))}
      </ul>
      {registrations.length === 0 &&
        (viewer.signedIn ? (
          <p class="empty" data-testid="registrations-empty">
            You have no active registrations. <a href="/events">Find an event</a>
          </p>
        ) : (
          <p class="message" data-testid="registrations-signed-out">
            <a href={signInPath('/registrations')} data-testid="registrations-sign-in">
              Sign in
            </a>{' '}
            to see your registrations.
          </p>
        ))}
      <CancelDialog
        registration={cancellation.shown}
        confirming={cancellation.confirming}
        onConfirm={() => {
          setRequestUnknown(false);
          void cancellation.confirm();
        }}
        onDismiss={cancellation.dismiss}
      />
    </>
  );
}

/** One registration: its event's card, when it was made, and Cancel…, which works once the page is enhanced. */
function RegistrationItem({ registration, enhanced, onCancel }: { registration: Registration; enhanced: boolean; onCancel(): void }) {
  const { event } = registration;
  return (
    <EventCard
      event={event}
      testId="registration"
      registrationId={registration.id}
      heading="h2"
      notes={
        <p class="card-note" data-testid="registered-on">
          Registered on <time dateTime={registration.registeredAt}>{formatDateTime(registration.registeredAt)}</time>
        </p>
      }
      actions={
        <button type="button" class="button button-small" data-testid="cancel-button" aria-haspopup="dialog" disabled={!enhanced} onClick={onCancel}>
          Cancel
          <span class="visually-hidden">
            {' '}
            registration for <span lang={textLang(event.title)}>{event.title}</span>
          </span>
          …
        </button>
      }
    />
  );
}

/**
 * What the last cancellation came to. The live regions are always in the
 * page, so a screen reader announces what appears in them; the success
 * message takes focus (its Cancel… button is gone from the list).
 */
function CancelOutcomeMessages({ outcome, successRef }: { outcome: CancelOutcome | null; successRef: { current: HTMLParagraphElement | null } }) {
  return (
    <>
      <div role="status">
        {outcome?.kind === 'cancelled' && (
          <p class="message message-success" data-testid="cancel-success" tabIndex={-1} ref={successRef}>
            Your registration for <span lang={textLang(outcome.registration.event.title)}>{outcome.registration.event.title}</span>
            {` (${formatDateRange(outcome.registration.event.startsAt, outcome.registration.event.endsAt)}) was cancelled.`}
          </p>
        )}
      </div>
      <div role="alert">
        {outcome?.kind === 'failed' && (
          <p class="message message-error" data-testid="cancel-error">
            {outcome.message}
          </p>
        )}
      </div>
    </>
  );
}

/**
 * The list on screen and its reloads. `settled` holds the latest reload (a
 * resolved promise before any), resolving once its list is on screen; a
 * reload that fails keeps the list and says why.
 */
function useRegistrationsList(initial: Registration[]) {
  const site = usePageSite();
  const leave = useLeaveSignal();
  const committed = useNextCommit();
  const [state, setState] = useState<ListState>({ registrations: initial, loading: false, error: null });
  const latest = useLatest(state);
  const settled = useRef<Promise<boolean>>(Promise.resolve(true));

  /** Loads the list again; true when the list on screen is now the server's. */
  function reload(): Promise<boolean> {
    const loading = (async () => {
      setState((current) => ({ ...current, loading: true }));
      try {
        const answer = await site.api.listRegistrations(leave);
        if (leave.aborted) return false;
        setState((current) =>
          answer.ok ? { registrations: answer.data.registrations, loading: false, error: null } : { ...current, loading: false, error: answer.error.message },
        );
        await committed();
        return answer.ok;
      } catch {
        // Aborted: the page was left.
        return false;
      }
    })();
    settled.current = loading;
    return loading;
  }

  return { state, latest, settled, reload };
}

/**
 * The cancel dialog's state: which registration it asks about (`shown` for
 * rendering, `pending` read by controls, set at once so two calls in one
 * turn cannot both open it), whether the cancellation is being sent, and
 * what the last one came to.
 */
function useCancellation(list: ReturnType<typeof useRegistrationsList>) {
  const site = usePageSite();
  const leave = useLeaveSignal();
  const committed = useNextCommit();
  const [shown, setShown] = useState<Registration | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<CancelOutcome | null>(null);
  const pending = useRef<Registration | null>(null);
  const once = useSingleFlight();
  const successMessage = useRef<HTMLParagraphElement | null>(null);

  function show(registration: Registration | null): void {
    pending.current = registration;
    setShown(registration);
  }

  /** Opens the dialog for a listed registration; resolves once it is on screen (page-controls.ts, `openCancelDialog`). */
  async function open(registrationId: string): Promise<boolean> {
    // An open dialog is the person's to answer: it is never closed and reopened, nor pointed at another registration.
    if (pending.current !== null) return pending.current.id === registrationId;
    const registration = list.latest.current.registrations.find((candidate) => candidate.id === registrationId);
    if (registration === undefined || leave.aborted) return false;
    show(registration);
    await committed();
    return true;
  }

  /**
   * The person's confirmation: cancels with a fresh intent, closes the
   * dialog, says what happened and reloads the list. A second confirmation
   * while the first is being sent (two clicks at once) is ignored.
   */
  async function confirm(): Promise<void> {
    // Only the request is single: the list's reload after it does not hold up the next confirmation.
    const answered = await once(async () => {
      const target = pending.current;
      if (target === null) return null;
      setConfirming(true);
      const answer = await site.api.cancelRegistration(target.id);
      if (leave.aborted) return null;
      setConfirming(false);
      show(null);
      setOutcome(answer.ok ? { kind: 'cancelled', registration: target } : { kind: 'failed', message: answer.error.message });
      return { cancelled: answer.ok };
    });
    if (answered === undefined || answered === null) return;
    await list.reload();
    if (answered.cancelled && !leave.aborted) successMessage.current?.focus();
  }

  return { shown, pending, confirming, outcome, successMessage, open, confirm, dismiss: () => show(null) };
}

function isListed(registrations: Registration[], registrationId: string): boolean {
  return registrations.some((registration) => registration.id === registrationId);
}
