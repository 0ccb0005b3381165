/**
 * @module
 * `/activity`: what the agents a signed-in person connected did for them,
 * and what the person did themselves on the site's own pages (confirming,
 * registering, cancelling: the `ui` surface), newest first
 * (@agentready/identity/pages `ActivityContent`, in this site's words):
 * touched events link to their page, registrations to the registrations
 * page; times in the site's time zone. Filtered by client and paged with
 * plain links, which work before (and without) the script. Nobody signed in:
 * a sign-in link instead.
 */
import { ActivityContent, type ActivitySiteWords } from '@agentready/identity/pages';
import { formatDateTime } from '../event-format.ts';
import type { ActivityPageData } from '../page-data.ts';
import { useRouteControls } from '../page-hooks.ts';
import { eventPath } from '../routes.ts';

/** This site's words, links and times on the activity page. */
const EVENTS_ACTIVITY_WORDS: ActivitySiteWords = {
  personSteps: {
    approve_registration: { done: 'You reviewed and confirmed a registration', refused: 'You tried to confirm a registration' },
    register_for_event: { done: 'You registered', refused: 'You tried to register' },
    approve_cancellation: { done: 'You confirmed a cancellation', refused: 'You tried to confirm a cancellation' },
    cancel_registration: { done: 'You cancelled a registration', refused: 'You tried to cancel a registration' },
  },
  outcomes: { CONFLICT: 'Refused: it could no longer be done (the event was full or closed, it was already done, or the details had changed)' },
  personOutcomes: { CONFLICT: 'Not done: the event was full or closed, it was already done, or the details had changed' },
  touchedLink(id) {
    if (id.startsWith('evt-')) return { href: eventPath(id), text: `event ${id}` };
    if (id.startsWith('reg-')) return { href: '/registrations', text: `registration ${id}` };
    return null;
  },
  formatTime: formatDateTime,
  connectPath: '/connect',
};

/** The classes of this site's stylesheet the content takes on. */
const CLASSES = { lead: 'lead', empty: 'empty', note: 'card-note', pager: 'pager', problem: 'message message-error' };

/** The activity page. */
export function ActivityPage({ data }: { data: ActivityPageData }) {
  useRouteControls('activity', {});
  if (!data.signedIn) {
    return (
      <>
        <h1>Activity</h1>
        <p class="empty" data-testid="activity-signed-out">
          <a href="/signin">Sign in to see what your agents did</a>
        </p>
      </>
    );
  }
  return (
    <ActivityContent
      filter={data.filter}
      clients={data.clients}
      entries={data.entries}
      next={data.next}
      older={data.older}
      error={data.error?.message ?? null}
      words={EVENTS_ACTIVITY_WORDS}
      classes={CLASSES}
    />
  );
}
