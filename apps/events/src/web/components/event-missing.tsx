/**
 * @module
 * What an event's page (or its register page) shows when there is no event
 * to show: no such event (the server answers 404), or it could not be
 * loaded; and the way back to the list.
 */
import type { ApiFailure } from '../api-client.ts';

/** The heading, the reason (`data-testid` = `testId`, an alert) and a link to find another event. */
export function EventMissing({ error, testId }: { error: ApiFailure | null; testId: string }) {
  return (
    <>
      <h1>{error?.code === 'NOT_FOUND' ? 'Event not found' : 'The event could not be loaded'}</h1>
      <p class="message message-error" data-testid={testId} role="alert">
        {error?.message ?? 'The event could not be loaded.'}
      </p>
      <p>
        <a href="/events">Find another event</a>
      </p>
    </>
  );
}
