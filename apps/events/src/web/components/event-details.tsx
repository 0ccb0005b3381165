/**
 * @module
 * One event's full details with its Save button and Register link: the body
 * of the /events/:id page and of the preview panel on /events.
 */
import { useState } from 'preact/hooks';
import type { EventDetail } from '../api-shapes.ts';
import { formatDateRange, formatDateTime, formatLevel, formatLocation, formatPrice, formatState } from '../event-format.ts';
import { usePageSite, useSingleFlight, useViewer } from '../page-hooks.ts';
import { registerPath, signInPath } from '../routes.ts';
import { textLang } from '../text-language.ts';

/** Props of {@link EventDetails}. */
export type EventDetailsProps = {
  event: EventDetail;
  /** `h1` on the event's own page, `h2` in the panel. */
  heading: 'h1' | 'h2';
};

/**
 * The details. Save posts `POST /api/saved` and turns the button into
 * "Saved" (so does an `event` whose `saved` is true); its failure is shown in
 * `data-testid="save-error"`. Register is a link while the event is open and
 * not yet registered (for a visitor who is not signed in, to the sign-in page,
 * which then comes back to the registration page), and a disabled text
 * saying why otherwise.
 */
export function EventDetails({ event, heading: Heading }: EventDetailsProps) {
  const site = usePageSite();
  const [savedHere, setSavedHere] = useState(false);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const once = useSingleFlight();
  const saved = event.saved || savedHere;

  async function save(): Promise<void> {
    setSaving(true);
    setSaveError(null);
    const answer = await site.api.saveEvent(event.id);
    setSaving(false);
    if (answer.ok) setSavedHere(true);
    else setSaveError(answer.error.message);
  }

  return (
    <article class="event-details" data-testid="event-details" data-event-id={event.id}>
      <Heading class="details-title" data-testid="event-title" lang={textLang(event.title)}>
        {event.title}
      </Heading>
      <p class={`state state-${event.state}`} data-testid="event-state">
        {formatState(event.state)}
      </p>
      <dl class="facts">
        <dt>When</dt>
        <dd>
          <time dateTime={event.startsAt}>{formatDateRange(event.startsAt, event.endsAt)}</time>
        </dd>
        <dt>Where</dt>
        <dd>
          <span lang={textLang(event.venue)}>{event.venue}</span>, {formatLocation(event.location)}
        </dd>
        <dt>Price</dt>
        <dd>
          <span data-testid="event-price">{formatPrice(event)}</span>
        </dd>
        <dt>Level</dt>
        <dd>{formatLevel(event.level)}</dd>
        <dt>Places left</dt>
        <dd>
          <span data-testid="places-left" data-remaining={String(event.remainingCapacity)}>{`${event.remainingCapacity} of ${event.capacity}`}</span>
        </dd>
        <dt>Register by</dt>
        <dd>
          <time dateTime={event.registrationDeadline}>{formatDateTime(event.registrationDeadline)}</time>
        </dd>
      </dl>
      <p class="summary" data-testid="event-summary" lang={textLang(event.summary)}>
        {event.summary}
      </p>
      <div class="actions">
        <button
          type="button"
          class="button"
          data-testid="save-button"
          disabled={saved || saving}
          aria-pressed={saved ? 'true' : undefined}
          onClick={() => void once(save, event.id)}
        >
          {saved ? 'Saved' : 'Save'}
        </button>
        <RegisterAction event={event} />
      </div>
      {saveError !== null && !saved && (
        <p class="message message-error" data-testid="save-error" role="alert">
          {saveError}
        </p>
      )}
    </article>
  );
}

function RegisterAction({ event }: { event: EventDetail }) {
  const viewer = useViewer();
  if (event.state === 'open' && !event.registered) {
    const href = viewer.signedIn ? registerPath(event.id) : signInPath(registerPath(event.id));
    return (
      <a class="button button-primary" data-testid="register-link" href={href}>
        Register
      </a>
    );
  }
  const reason = event.registered ? 'You are registered' : event.state === 'full' ? 'Full: no places left' : 'Registration closed';
  const disabled = (
    <span class="button button-disabled" data-testid="register-link" aria-disabled="true">
      {reason}
    </span>
  );
  if (!event.registered) return disabled;
  return (
    <span class="registered-note">
      {disabled} <a href="/registrations">See my registrations</a>
    </span>
  );
}
