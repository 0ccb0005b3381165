/**
 * @module
 * `/activity`: what the agents a signed-in person connected did for them,
 * and what the person did themselves on the site's own pages (confirming,
 * registering, cancelling: the `ui` surface), newest first. An agent's call
 * reads: when (in the site's time zone), which client or access token, which
 * tool, the outcome in words, and what it touched; the person's own action
 * reads "You registered …", marked apart, with what it touched. Touched
 * events link to their page, registrations to the registrations page. Filtered by client and paged with
 * plain links, which work before (and without) the script. Nobody signed in:
 * a sign-in link instead.
 */
import { textLang } from '../text-language.ts';
import { formatDateTime } from '../event-format.ts';
import type { ActivityClientView, ActivityEntryView, ActivityPageData } from '../page-data.ts';
import { useRouteControls } from '../page-hooks.ts';
import { eventPath } from '../routes.ts';

/** Each envelope code as the person reads it (codes: docs/architecture.md, "The envelope"). */
const OUTCOME_WORDS: Record<string, string> = {
  SUCCESS: 'Done',
  INVALID_INPUT: 'Refused: the request was not valid',
  NOT_FOUND: 'Refused: nothing by that ID',
  SELECTION_REQUIRED: 'Stopped: you were asked to choose',
  CURRENT_TARGET_MISMATCH: 'Refused: not what the page showed',
  STALE_TOOL: 'Refused: the page had changed',
  CONFLICT: 'Refused: it could no longer be done (the event was full or closed, it was already done, or the details had changed)',
  CONFIRMATION_REQUIRED: 'Waiting for your confirmation',
  UNAUTHENTICATED: 'Refused: not connected as you',
  SESSION_EXPIRED: 'Refused: the session had ended',
  FORBIDDEN: 'Refused: not allowed for this client',
  IDEMPOTENCY_KEY_REUSED: 'Refused: a repeated request',
  IN_PROGRESS: 'Still in progress',
  RATE_LIMITED: 'Refused: too many calls',
  TEMPORARY_FAILURE: 'Failed: the site could not complete it',
  BLOCKED: 'Blocked',
};

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
  const { filter } = data;
  return (
    <>
      <h1>Activity</h1>
      <p class="lead">What the agents you connected did for you, and what you did yourself on this site, newest first.</p>
      {data.clients.length > 1 && <ClientFilter clients={data.clients} filter={filter} />}
      {data.error !== null && (
        <p class="message message-error" data-testid="activity-error" role="alert">
          {data.error.message} <a href="/activity">Show the newest activity</a>
        </p>
      )}
      <ol class="activity-list" data-testid="activity-list">
        {data.entries.map((entry, index) => (
          <ActivityItem key={`${entry.occurredAt}-${index}`} entry={entry} />
        ))}
      </ol>
      {data.error === null && data.entries.length === 0 && (
        <p class="empty" data-testid="activity-empty">
          {data.older ? 'No older activity.' : filter.client !== null || filter.browser ? 'Nothing from this client.' : 'No agent has acted for you yet.'}{' '}
          {filter.client !== null || filter.browser ? <a href="/activity">All clients</a> : <a href="/connect">Connect an agent</a>}
        </p>
      )}
      <nav class="pager" aria-label="Activity pages">
        {data.older && (
          <a href={activityHref(filter, null)} data-testid="activity-newest">
            Newest
          </a>
        )}{' '}
        {data.next !== null && (
          <a href={activityHref(filter, data.next)} data-testid="activity-older">
            Older activity
          </a>
        )}
      </nav>
    </>
  );
}

/** Links to all activity, the browser's, and each client's; the one shown marked `aria-current`. */
function ClientFilter({ clients, filter }: { clients: ActivityClientView[]; filter: { client: string | null; browser: boolean } }) {
  const all = filter.client === null && !filter.browser;
  return (
    <nav aria-label="Filter by client" class="activity-filter" data-testid="activity-filter">
      <ul>
        <li>
          <a href="/activity" aria-current={all ? 'page' : undefined}>
            All clients
          </a>
        </li>
        {clients.map((client) => {
          const target = client.clientName === null ? { client: null, browser: true } : { client: client.clientName, browser: false };
          const current = client.clientName === null ? filter.browser : filter.client === client.clientName;
          return (
            <li key={client.clientName ?? ''}>
              <a href={activityHref(target, null)} aria-current={current ? 'page' : undefined}>
                {filterWords(client)}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function ActivityItem({ entry }: { entry: ActivityEntryView }) {
  if (entry.surface === PERSON_SURFACE) return <OwnActionItem entry={entry} />;
  return (
    <li class="activity-item" data-testid="activity-item">
      <p>
        <time dateTime={entry.occurredAt}>{formatDateTime(entry.occurredAt)}</time>: <strong>{clientWords(entry.clientName, entry.principalKind)}</strong>
        {entry.credentialRef !== null && (
          <span class="card-note">
            {' '}
            (access {entry.principalKind === 'oauth' ? 'grant' : 'token'} {entry.credentialRef})
          </span>
        )}{' '}
        used <span data-testid="activity-tool">{entry.toolTitle}</span>.
      </p>
      <p data-testid="activity-outcome">{OUTCOME_WORDS[entry.outcomeCode] ?? `Ended with ${entry.outcomeCode}`}.</p>
      {entry.resultingIds.length > 0 && (
        <p data-testid="activity-touched">
          Touched:{' '}
          {entry.resultingIds.map((id, index) => (
            <span key={id}>
              {index > 0 && ', '}
              <TouchedLink id={id} />
            </span>
          ))}
        </p>
      )}
      <p class="card-note" data-testid="activity-reference">
        Reference for the site&#39;s operator: <code>{entry.traceId}</code>
      </p>
    </li>
  );
}

/** The surface of the site's own pages, where the person clicks (their confirmations and commits, tools/site-commits.ts). */
const PERSON_SURFACE = 'ui';

/** What the person did on the site's own pages, by step, as they would say it; and when it was refused. */
const OWN_ACTION_WORDS: Record<string, { done: string; refused: string }> = {
  approve_registration: { done: 'You reviewed and confirmed a registration', refused: 'You tried to confirm a registration' },
  register_for_event: { done: 'You registered', refused: 'You tried to register' },
  approve_cancellation: { done: 'You confirmed a cancellation', refused: 'You tried to confirm a cancellation' },
  cancel_registration: { done: 'You cancelled a registration', refused: 'You tried to cancel a registration' },
};

/** Why the person's own step was not done, where the agents' words would mislead (a used confirmation is not "waiting" for one). */
const OWN_OUTCOME_WORDS: Record<string, string> = {
  CONFIRMATION_REQUIRED: 'Not done: its confirmation was already used or had expired, so it needs your review again',
  CONFLICT: 'Not done: the event was full or closed, it was already done, or the details had changed',
};

/** The person's own action: in their words, apart from the agents' calls (class `activity-own`), with what it touched. */
function OwnActionItem({ entry }: { entry: ActivityEntryView }) {
  const words = OWN_ACTION_WORDS[entry.tool] ?? { done: `You used ${entry.toolTitle}`, refused: `You tried ${entry.toolTitle}` };
  const done = entry.outcomeCode === 'SUCCESS';
  return (
    <li class="activity-item activity-own" data-testid="activity-own">
      <p>
        <time dateTime={entry.occurredAt}>{formatDateTime(entry.occurredAt)}</time>: <strong>{done ? words.done : words.refused}</strong>
        {entry.resultingIds.length > 0 && (
          <>
            {' '}
            (
            {entry.resultingIds.map((id, index) => (
              <span key={id}>
                {index > 0 && ', '}
                <TouchedLink id={id} />
              </span>
            ))}
            )
          </>
        )}
        .
      </p>
      {!done && (
        <p data-testid="activity-outcome">{OWN_OUTCOME_WORDS[entry.outcomeCode] ?? OUTCOME_WORDS[entry.outcomeCode] ?? `Ended with ${entry.outcomeCode}`}.</p>
      )}
      <p class="card-note" data-testid="activity-reference">
        Reference for the site&#39;s operator: <code>{entry.traceId}</code>
      </p>
    </li>
  );
}

/** An event's page for `evt-…`, the registrations page for `reg-…`, else the ID as text. */
function TouchedLink({ id }: { id: string }) {
  if (id.startsWith('evt-')) return <a href={eventPath(id)}>event {id}</a>;
  if (id.startsWith('reg-')) return <a href="/registrations">registration {id}</a>;
  return <span lang={textLang(id)}>{id}</span>;
}

/** Who acted, in words: the client's name, or "An agent in your browser" for the person's own page. */
function clientWords(clientName: string | null, kind: ActivityClientView['principalKind']): string {
  if (clientName !== null) return clientName;
  return kind === 'session' ? 'An agent in your browser' : 'An unnamed client';
}

/** A client of the filter, in words: the person's own browser holds both its agent's calls and the person's own actions. */
function filterWords(client: ActivityClientView): string {
  return client.clientName === null && client.principalKind === 'session'
    ? 'Your browser (you and its agent)'
    : clientWords(client.shownName, client.principalKind);
}

/** `/activity` with the filter and, for an older page, its cursor. */
function activityHref(filter: { client: string | null; browser: boolean }, before: string | null): string {
  const query = new URLSearchParams();
  if (filter.client !== null) query.set('client', filter.client);
  if (filter.browser) query.set('browser', '1');
  if (before !== null) query.set('before', before);
  const search = query.toString();
  return search === '' ? '/activity' : `/activity?${search}`;
}
