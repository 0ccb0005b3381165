/**
 * @module A signed-in person's activity page's content, one for every site
 * (docs/architecture.md, "Activity and journeys"): what the agents they
 * connected did for them, and, set apart (class `activity-own`) and in their
 * own words, the steps they took themselves (confirming, committing), newest
 * first. An agent's call reads: when (in the site's time), which client or
 * access token, which tool (its title, never its name), the outcome in words,
 * and what it touched, linked where the site has a page for it. Each row
 * shows its trace id, the reference the site's operator's trace command
 * takes. Filtered by client and paged with plain links, which work without
 * script; server-rendered, and it hydrates in a site whose pages run a
 * script. Only the site's words, links and classes differ.
 */

/** One call as the page shows it (agentready/runtime `readActivityPage`'s entry, with its tool's title). */
export type ActivityRowShown = {
  /** The call's trace id, shown as the reference for the site's operator. */
  traceId: string;
  /** ISO 8601, for `<time datetime>`; the site's `formatTime` words it. */
  occurredAt: string;
  tool: string;
  /** The tool's title, as people read it ("Save event"). */
  toolTitle: string;
  surface: string;
  principalKind: 'session' | 'token' | 'oauth' | null;
  /** The client's name as pages show it, or null (the person's own browser, or nobody). */
  clientName: string | null;
  /** The access token's or grant's public reference, or null. */
  credentialRef: string | null;
  /** `SUCCESS` or the envelope's error code. */
  outcomeCode: string;
  /** Public IDs the call created or changed. */
  resultingIds: string[];
  /** The draft the call prepared, confirmed or committed, or null. */
  draftId: string | null;
};

/** A client to filter by: its name as stored (the filter's value; null for the person's own browser), as shown, and its kind of credential. */
export type ActivityFilterClient = { clientName: string | null; shownName: string | null; principalKind: 'session' | 'token' | 'oauth' | null };

/** What the page shows: one client's calls (`client`), the person's own browser's (`browser`), or all (neither). */
export type ActivityFilter = { client: string | null; browser: boolean };

/** A step the person takes themselves, in their words: done ("You registered"), and refused ("You tried to register"). */
export type PersonStepWords = { done: string; refused: string };

/** A touched thing as the page links it: the link's address and words ("event evt-…"). */
export type TouchedLink = { href: string; text: string };

/** The site's words, links and time format for {@link ActivityContent}. */
export type ActivitySiteWords = {
  /** The person's own steps by tool name. A person's step of any other tool reads "You used <title>". */
  personSteps: Readonly<Record<string, PersonStepWords>>;
  /** Whether a row is a step the person took themselves. Default: made on the site's own pages (surface `ui`). */
  isPersonStep?: (row: ActivityRowShown) => boolean;
  /** The site's words for an agent's outcome where the shared ones would say less (a refusal's reason in the site's terms), by code. */
  outcomes?: Readonly<Partial<Record<string, string>>>;
  /** The same for the person's own steps. */
  personOutcomes?: Readonly<Partial<Record<string, string>>>;
  /** The site's page for a touched ID (a resulting ID), or null: the ID is shown as text. */
  touchedLink(id: string): TouchedLink | null;
  /** The site's page for the draft a call worked on, or null (default): a draft is then not listed as touched. */
  draftLink?(draftId: string): TouchedLink | null;
  /** A row's time as the site shows its times. */
  formatTime(iso: string): string;
  /** Where the person connects an agent: the empty page links it. */
  connectPath: string;
  /** The page's path, for the filter's and pager's links. Default `/activity`. */
  path?: string;
};

/** Props of {@link ActivityContent}. */
export type ActivityContentProps = {
  filter: ActivityFilter;
  /** The clients that acted for the account; the filter shows when there are two or more. */
  clients: readonly ActivityFilterClient[];
  entries: readonly ActivityRowShown[];
  /** The `before` value of the older page, or null on the last page. */
  next: string | null;
  /** Whether this page is not the newest. */
  older: boolean;
  /** Why the page's query was refused, in words for the person, or null. */
  error: string | null;
  words: ActivitySiteWords;
  /**
   * The site's own classes beside the page's `activity-…` ones: the lead
   * sentence, the empty list's sentence, the operator's reference, the
   * pager, and the refusal said on the page. Default: none.
   */
  classes?: { lead?: string; empty?: string; note?: string; pager?: string; problem?: string };
};

/** Each envelope code as the person reads it (codes: docs/architecture.md, "The envelope"). */
const OUTCOME_WORDS: Readonly<Record<string, string>> = {
  SUCCESS: 'Done',
  INVALID_INPUT: 'Refused: the request was not valid',
  NOT_FOUND: 'Refused: nothing by that ID',
  SELECTION_REQUIRED: 'Stopped: you were asked to choose',
  CURRENT_TARGET_MISMATCH: 'Refused: not what the page showed',
  STALE_TOOL: 'Refused: the page had changed',
  CONFLICT: 'Refused: it could no longer be done (it was already done, or the details had changed)',
  CONFIRMATION_REQUIRED: 'Waiting for your confirmation',
  UNAUTHENTICATED: 'Refused: not connected as you',
  SESSION_EXPIRED: 'Refused: the session had ended',
  FORBIDDEN: 'Refused: not allowed for this client',
  IDEMPOTENCY_KEY_REUSED: 'Refused: a repeated request',
  IN_PROGRESS: 'Still in progress',
  RATE_LIMITED: 'Refused: too many calls',
  TEMPORARY_FAILURE: 'Failed: the site could not complete it',
  INTERNAL_ERROR: 'Failed: a fault in the site stopped it; nothing was changed',
  BLOCKED: "Stopped: the site's rules do not allow it as asked",
};

/** Why the person's own step was not done, where the agents' words would mislead (a used confirmation is not "waiting" for one). */
const PERSON_OUTCOME_WORDS: Readonly<Record<string, string>> = {
  CONFIRMATION_REQUIRED: 'Not done: its confirmation was already used or had expired, so it needs your review again',
  CONFLICT: 'Not done: it was already done, or the details had changed',
};

/**
 * The activity page's content (heading "Activity"), for `<main>`. Test ids:
 * `activity-filter`, `activity-error`, `activity-list`, `activity-item` (an
 * agent's call) with `activity-tool`, `activity-outcome`,
 * `activity-touched`, `activity-reference`; `activity-own` (the person's
 * step); `activity-empty`, `activity-newest`, `activity-older`.
 */
export function ActivityContent({ filter, clients, entries, next, older, error, words, classes = {} }: ActivityContentProps) {
  const path = words.path ?? '/activity';
  const filtered = filter.client !== null || filter.browser;
  return (
    <>
      <h1>Activity</h1>
      <p class={joined('activity-lead', classes.lead)}>What the agents you connected did for you, and what you did yourself on this site, newest first.</p>
      {clients.length > 1 && <ClientFilter clients={clients} filter={filter} path={path} />}
      {error !== null && (
        <p class={joined('activity-problem', classes.problem)} data-testid="activity-error" role="alert">
          {error} <a href={path}>Show the newest activity</a>
        </p>
      )}
      <ol class="activity-list" data-testid="activity-list">
        {entries.map((entry) => (
          <ActivityItem key={entry.traceId} entry={entry} words={words} noteClass={joined('activity-note', classes.note)} />
        ))}
      </ol>
      {error === null && entries.length === 0 && (
        <p class={joined('activity-empty', classes.empty)} data-testid="activity-empty">
          {older ? 'No older activity.' : filtered ? 'Nothing from this client.' : 'No agent has acted for you yet.'}{' '}
          {filtered ? <a href={path}>All clients</a> : <a href={words.connectPath}>Connect an agent</a>}
        </p>
      )}
      <nav class={joined('activity-pager', classes.pager)} aria-label="Activity pages">
        {older && (
          <a href={activityHref(path, filter, null)} data-testid="activity-newest">
            Newest
          </a>
        )}{' '}
        {next !== null && (
          <a href={activityHref(path, filter, next)} data-testid="activity-older">
            Older activity
          </a>
        )}
      </nav>
    </>
  );
}

/** Links to all activity, the browser's, and each client's; the one shown marked `aria-current`. */
function ClientFilter({ clients, filter, path }: { clients: readonly ActivityFilterClient[]; filter: ActivityFilter; path: string }) {
  const all = filter.client === null && !filter.browser;
  return (
    <nav aria-label="Filter by client" class="activity-filter" data-testid="activity-filter">
      <ul>
        <li>
          <a href={path} aria-current={all ? 'page' : undefined}>
            All clients
          </a>
        </li>
        {clients.map((client) => {
          const target = client.clientName === null ? { client: null, browser: true } : { client: client.clientName, browser: false };
          const current = client.clientName === null ? filter.browser : filter.client === client.clientName;
          return (
            <li key={client.clientName ?? ''}>
              <a href={activityHref(path, target, null)} aria-current={current ? 'page' : undefined}>
                {filterWords(client)}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function ActivityItem({ entry, words, noteClass }: { entry: ActivityRowShown; words: ActivitySiteWords; noteClass: string }) {
  const isPersonStep = words.isPersonStep ?? ((row: ActivityRowShown) => row.surface === PERSON_SURFACE);
  if (isPersonStep(entry)) return <PersonStepItem entry={entry} words={words} noteClass={noteClass} />;
  const touched = touchedOf(entry, words);
  return (
    <li class="activity-item" data-testid="activity-item">
      <p>
        <time dateTime={entry.occurredAt}>{words.formatTime(entry.occurredAt)}</time>: <strong>{clientWords(entry.clientName, entry.principalKind)}</strong>
        {entry.credentialRef !== null && (
          <span class={noteClass}>
            {' '}
            (access {entry.principalKind === 'oauth' ? 'grant' : 'token'} {entry.credentialRef})
          </span>
        )}{' '}
        used <span data-testid="activity-tool">{entry.toolTitle}</span>.
      </p>
      <p data-testid="activity-outcome">{words.outcomes?.[entry.outcomeCode] ?? OUTCOME_WORDS[entry.outcomeCode] ?? `Ended with ${entry.outcomeCode}`}.</p>
      {touched.length > 0 && (
        <p data-testid="activity-touched">
          Touched: <TouchedList touched={touched} />
        </p>
      )}
      <Reference traceId={entry.traceId} noteClass={noteClass} />
    </li>
  );
}

/** The surface of the site's own pages, where the person clicks. */
const PERSON_SURFACE = 'ui';

/** The person's own step: in their words, apart from the agents' calls (class `activity-own`), with what it touched and the client it was taken in. */
function PersonStepItem({ entry, words, noteClass }: { entry: ActivityRowShown; words: ActivitySiteWords; noteClass: string }) {
  const step = words.personSteps[entry.tool] ?? { done: `You used ${entry.toolTitle}`, refused: `You tried ${entry.toolTitle}` };
  const done = entry.outcomeCode === 'SUCCESS';
  const touched = touchedOf(entry, words);
  return (
    <li class="activity-item activity-own" data-testid="activity-own">
      <p>
        <time dateTime={entry.occurredAt}>{words.formatTime(entry.occurredAt)}</time>: <strong>{done ? step.done : step.refused}</strong>
        {touched.length > 0 && (
          <>
            {' '}
            (<TouchedList touched={touched} />)
          </>
        )}
        {entry.clientName !== null && <> in {entry.clientName}</>}.
      </p>
      {!done && (
        <p data-testid="activity-outcome">
          {words.personOutcomes?.[entry.outcomeCode] ??
            PERSON_OUTCOME_WORDS[entry.outcomeCode] ??
            words.outcomes?.[entry.outcomeCode] ??
            OUTCOME_WORDS[entry.outcomeCode] ??
            `Ended with ${entry.outcomeCode}`}
          .
        </p>
      )}
      <Reference traceId={entry.traceId} noteClass={noteClass} />
    </li>
  );
}

/** The trace id, for the site's operator (their trace command takes it). */
function Reference({ traceId, noteClass }: { traceId: string; noteClass: string }) {
  return (
    <p class={noteClass} data-testid="activity-reference">
      Reference for the site&#39;s operator: <code>{traceId}</code>
    </p>
  );
}

/** What a row touched: its draft when the site links drafts, then its resulting IDs, each linked or as text. */
function touchedOf(entry: ActivityRowShown, words: ActivitySiteWords): Array<{ id: string; link: TouchedLink | null }> {
  const draft = entry.draftId !== null && words.draftLink ? words.draftLink(entry.draftId) : null;
  const results = entry.resultingIds.filter((id) => id !== entry.draftId).map((id) => ({ id, link: words.touchedLink(id) }));
  return draft !== null && entry.draftId !== null ? [{ id: entry.draftId, link: draft }, ...results] : results;
}

function TouchedList({ touched }: { touched: Array<{ id: string; link: TouchedLink | null }> }) {
  return (
    <>
      {touched.map(({ id, link }, index) => (
        <span key={id}>
          {index > 0 && ', '}
          {link === null ? <span class="activity-id">{id}</span> : <a href={link.href}>{link.text}</a>}
        </span>
      ))}
    </>
  );
}

/** Who acted, in words: the client's name, or "An agent in your browser" for the person's own page. */
function clientWords(clientName: string | null, kind: ActivityFilterClient['principalKind']): string {
  if (clientName !== null) return clientName;
  return kind === 'session' ? 'An agent in your browser' : 'An unnamed client';
}

/** A client of the filter, in words: the person's own browser holds both its agent's calls and the person's own steps. */
function filterWords(client: ActivityFilterClient): string {
  return client.clientName === null && client.principalKind === 'session'
    ? 'Your browser (you and its agent)'
    : clientWords(client.shownName, client.principalKind);
}

/** The page's path with the filter and, for an older page, its cursor. */
function activityHref(path: string, filter: ActivityFilter, before: string | null): string {
  const query = new URLSearchParams();
  if (filter.client !== null) query.set('client', filter.client);
  if (filter.browser) query.set('browser', '1');
  if (before !== null) query.set('before', before);
  const search = query.toString();
  return search === '' ? path : `${path}?${search}`;
}

function joined(...names: Array<string | undefined>): string {
  return names.filter((name) => name !== undefined && name !== '').join(' ');
}
