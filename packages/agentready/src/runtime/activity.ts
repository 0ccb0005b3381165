/**
 * @module Activity and journeys read from audit evidence (docs/architecture.md,
 * "Activity and journeys"): what the agents acting for one account did, newest
 * first, for that person's activity page; and one call's journey by trace id,
 * for an operator.
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { clientNameForDisplay } from '../contract/one-line-text.ts';
import type { AuditRecordTable, RuntimeTables } from '../store/runtime-migrations.ts';

/** One call as an activity page or a journey shows it. */
export type ActivityEntry = {
  traceId: string;
  /** ISO 8601 UTC. */
  occurredAt: string;
  tool: string;
  surface: string;
  principalKind: 'session' | 'token' | 'oauth' | null;
  /** The access token's label or OAuth client's name; null for the person's own browser (or nobody). */
  clientName: string | null;
  /**
   * The credential's public reference when it is one the person can see and
   * revoke (an access token's `pat-…`, a grant's ref); null for a browser
   * session, whose reference is the site's own bookkeeping.
   */
  credentialRef: string | null;
  /** `SUCCESS` or the envelope's error code. */
  outcomeCode: string;
  /** Public IDs the call created or changed. */
  resultingIds: string[];
  /** The public id of the draft the call prepared, confirmed or committed, or null. */
  draftId: string | null;
  /** Milliseconds from input to envelope. */
  durationMs: number;
};

/**
 * One call of a journey as an operator reads it ({@link findJourney}): the
 * activity entry and the evidence behind it. Not for a person's activity page.
 */
export type JourneyEntry = ActivityEntry & {
  /** The opaque `acc-…` reference of the account the call acted for, or null (nobody, or a visitor). */
  accountRef: string | null;
  /** The draft version the call prepared, confirmed or committed, or null. */
  draft: { id: string; version: number; hash: string } | null;
  /** The confirmation token's public id (`cnf-…`) the call minted or consumed, or null. */
  confirmationId: string | null;
  /** The rule set and metadata versions the call's answer was made under, or null. */
  ruleVersion: string | null;
  metadataVersion: string | null;
  /** True when the answer was replayed for a repeated idempotency key. */
  replayed: boolean;
  /** The capability the tool serves, or null. */
  capability: string | null;
};

/** Where the next page of activity starts: the last entry shown (keyset on `occurred_at`, `trace_id`). */
export type ActivityCursor = { occurredAt: string; traceId: string };

/** What {@link listActivity} reads. */
export type ActivityQuery = {
  /** The account's opaque `acc-…` reference; only its records are read. */
  accountRef: string;
  /**
   * Only one client's calls: a client name, or null for the calls without
   * one (the person's own browser). Absent: every client.
   */
  client?: string | null;
  /** Only calls older than this entry (the previous page's `next`). */
  before?: ActivityCursor;
  /** Entries per page, 1 to 100. */
  limit: number;
};

/** One page of activity, and where the next starts (null on the last page). */
export type ActivityPage = { entries: ActivityEntry[]; next: ActivityCursor | null };

/** A client that acted for an account: its name (null for the person's own browser) and its kind of credential. */
export type ActivityClient = { clientName: string | null; principalKind: 'session' | 'token' | 'oauth' | null };

const TRACE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Whether `text` has the form of a trace id the pipeline writes (a lower-case UUID, RFC 9562). */
export function isTraceId(text: string): boolean {
  return TRACE_ID.test(text);
}

/** An {@link ActivityCursor} as one URL-safe word (`<occurredAt>_<traceId>`), for a `?before=` link. */
export function formatActivityCursor(cursor: ActivityCursor): string {
  return `${cursor.occurredAt}_${cursor.traceId}`;
}

/**
 * Reads a cursor written by {@link formatActivityCursor}.
 *
 * @returns the cursor, or null when `text` is not one (a hand-edited link): the caller refuses it.
 */
export function parseActivityCursor(text: string): ActivityCursor | null {
  const [occurredAt = '', traceId = '', ...rest] = text.split('_');
  if (rest.length > 0 || !ISO_UTC.test(occurredAt) || Number.isNaN(Date.parse(occurredAt)) || !isTraceId(traceId)) return null;
  return { occurredAt, traceId };
}

/**
 * The calls made for one account, newest first, one page at a time. Records
 * of any other account, and of nobody, are never read.
 *
 * @throws RangeError when `accountRef` is empty or `limit` is not an integer from 1 to 100.
 * @example
 * const first = await listActivity(db, { accountRef: 'acc-…', limit: 20 });
 * const second = first.next && (await listActivity(db, { accountRef: 'acc-…', limit: 20, before: first.next }));
 */
export async function listActivity<DB extends RuntimeTables>(appDb: Kysely<DB>, query: ActivityQuery): Promise<ActivityPage> {
  if (query.accountRef === '') throw new RangeError('accountRef must name an account.');
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > 100) throw new RangeError('limit must be an integer from 1 to 100.');
  const db = appDb as unknown as Kysely<RuntimeTables>;
  let select = db.selectFrom('agentready_audit_record').selectAll().where('account_ref', '=', query.accountRef);
  if (query.client !== undefined) {
    select = query.client === null ? select.where('client_name', 'is', null) : select.where('client_name', '=', query.client);
  }
  const before = query.before;
  if (before) {
    select = select.where((eb) =>
      eb.or([eb('occurred_at', '<', before.occurredAt), eb.and([eb('occurred_at', '=', before.occurredAt), eb('trace_id', '<', before.traceId)])]),
    );
  }
  const rows = await newestFirst(select)
    .limit(query.limit + 1)
    .execute();
  const entries = rows.slice(0, query.limit).map(entryOf);
  const last = entries.at(-1);
  return { entries, next: rows.length > query.limit && last ? { occurredAt: last.occurredAt, traceId: last.traceId } : null };
}

/**
 * The clients that acted for one account (for a filter), by name; the
 * person's own browser (no client name) first when it acted.
 */
export async function listActivityClients<DB extends RuntimeTables>(appDb: Kysely<DB>, accountRef: string): Promise<ActivityClient[]> {
  const db = appDb as unknown as Kysely<RuntimeTables>;
  const rows = await db
    .selectFrom('agentready_audit_record')
    .select(['client_name', 'principal_kind'])
    .distinct()
    .where('account_ref', '=', accountRef)
    .execute();
  const clients = new Map<string, ActivityClient>();
  for (const row of rows) {
    const key = row.client_name ?? '';
    // One entry per name: the same label on a token and an OAuth client reads as one client to the person.
    if (!clients.has(key)) clients.set(key, { clientName: row.client_name, principalKind: principalKindOf(row.principal_kind) });
  }
  return [...clients.values()].sort((a, b) => (a.clientName ?? '').localeCompare(b.clientName ?? ''));
}

/**
 * What a person's activity page asks for, from its query: `?client=<name>`
 * one client's calls, `?browser=1` those made in the person's own browser
 * (no client name), `?before=<cursor>` older calls ({@link formatActivityCursor}).
 */
export type ActivityPageRequest = { client?: string; browser?: boolean; before?: string };

/** Reads an {@link ActivityPageRequest} from an activity page's query; any other parameter is ignored. */
export function activityPageRequestOf(params: URLSearchParams): ActivityPageRequest {
  const client = params.get('client');
  const before = params.get('before');
  return { ...(client !== null && { client }), ...(params.get('browser') === '1' && { browser: true }), ...(before !== null && { before }) };
}

/** A client to filter an activity page by: its name as stored (the filter's value), and `shownName`, as a page shows it. */
export type ActivityClientShown = ActivityClient & { shownName: string | null };

/**
 * One page of an account's activity as a person's page shows it: each entry's
 * `clientName` as a page shows it (an OAuth client's self-chosen name without
 * what could disguise it, `clientNameForDisplay`); the clients to filter by;
 * and `next`, the `before` value of the older page, or null. A refusal names
 * the query field and says why in words for the person.
 */
export type ActivityPageRead =
  | { ok: true; entries: ActivityEntry[]; clients: ActivityClientShown[]; next: string | null }
  | { ok: false; field: 'before' | 'client'; message: string };

/** Entries per activity page unless told otherwise. */
export const ACTIVITY_PAGE_SIZE = 20;

/**
 * The activity of one account for its page ({@link listActivity} and
 * {@link listActivityClients}, the request checked first).
 *
 * @param limit entries per page, 1 to 100 (default {@link ACTIVITY_PAGE_SIZE}).
 * @returns the page; a refusal (nothing read) for a `before` that is not a
 *   cursor this toolkit wrote (field `before`), or for both a client and the
 *   browser at once (field `client`).
 * @throws RangeError as {@link listActivity} does.
 */
export async function readActivityPage<DB extends RuntimeTables>(
  appDb: Kysely<DB>,
  accountRef: string,
  request: ActivityPageRequest,
  limit: number = ACTIVITY_PAGE_SIZE,
): Promise<ActivityPageRead> {
  const before = request.before === undefined ? undefined : parseActivityCursor(request.before);
  if (before === null) return { ok: false, field: 'before', message: 'This link to older activity is not valid.' };
  if (request.client !== undefined && request.browser) return { ok: false, field: 'client', message: 'Choose one client, or your browser, not both.' };
  const client = request.browser ? null : request.client;
  const page = await listActivity(appDb, {
    accountRef,
    limit,
    ...(client !== undefined && { client }),
    ...(before !== undefined && { before }),
  });
  const clients = await listActivityClients(appDb, accountRef);
  return {
    ok: true,
    entries: page.entries.map((entry) => ({ ...entry, clientName: shownClientName(entry.clientName) })),
    clients: clients.map((shown) => ({ ...shown, shownName: shownClientName(shown.clientName) })),
    next: page.next === null ? null : formatActivityCursor(page.next),
  };
}

/** A client's name as pages show it: an OAuth client chose its own, so what could disguise it is left out. */
function shownClientName(name: string | null): string | null {
  return name === null ? null : clientNameForDisplay(name).text;
}

/** The most records one journey gathers: a journey is a few calls, never a history. */
const JOURNEY_LIMIT = 50;

/**
 * One call's journey, oldest first: the record of `traceId`, and the records
 * linked to it. Two records are linked when both belong to the same owner
 * (the same account, or without an account the same credential) and share a
 * registration draft id or a confirmation id, directly or through other
 * linked records (prepare → confirm → register). Resulting ids do not link:
 * the same event is saved or read by unrelated calls.
 *
 * @returns the records, or an empty list when no record has that trace id.
 */
export async function findJourney<DB extends RuntimeTables>(appDb: Kysely<DB>, traceId: string): Promise<JourneyEntry[]> {
  const db = appDb as unknown as Kysely<RuntimeTables>;
  const start = await db.selectFrom('agentready_audit_record').selectAll().where('trace_id', '=', traceId).executeTakeFirst();
  if (!start) return [];
  const found = new Map<string, AuditRecordTable>([[start.trace_id, start]]);
  const owner = start.account_ref === null ? ('principal_ref' as const) : ('account_ref' as const);
  const ownerValue = start[owner];
  const drafts = new Set<string>();
  const confirmations = new Set<string>();
  for (let round = 0; round < JOURNEY_LIMIT; round += 1) {
    const before = drafts.size + confirmations.size;
    for (const row of found.values()) {
      if (row.draft_id !== null) drafts.add(row.draft_id);
      if (row.confirmation_id !== null) confirmations.add(row.confirmation_id);
    }
    // No new id to follow, or nobody to own a journey (an anonymous call stands alone).
    if (drafts.size + confirmations.size === before || ownerValue === null) break;
    const linked = await db
      .selectFrom('agentready_audit_record')
      .selectAll()
      .where(owner, '=', ownerValue)
      .where((eb) =>
        eb.or([
          ...(drafts.size > 0 ? [eb('draft_id', 'in', [...drafts])] : []),
          ...(confirmations.size > 0 ? [eb('confirmation_id', 'in', [...confirmations])] : []),
        ]),
      )
      .orderBy('occurred_at')
      .orderBy('trace_id')
      .limit(JOURNEY_LIMIT)
      .execute();
    for (const row of linked) if (found.size < JOURNEY_LIMIT) found.set(row.trace_id, row);
  }
  return [...found.values()]
    .sort((a, b) => (a.occurred_at === b.occurred_at ? a.trace_id.localeCompare(b.trace_id) : a.occurred_at < b.occurred_at ? -1 : 1))
    .map(journeyEntryOf);
}

function newestFirst<O>(select: SelectQueryBuilder<RuntimeTables, 'agentready_audit_record', O>) {
  return select.orderBy('occurred_at', 'desc').orderBy('trace_id', 'desc');
}

function principalKindOf(kind: string | null): ActivityEntry['principalKind'] {
  return kind === 'session' || kind === 'token' || kind === 'oauth' ? kind : null;
}

function entryOf(row: AuditRecordTable): ActivityEntry {
  const principalKind = principalKindOf(row.principal_kind);
  return {
    traceId: row.trace_id,
    occurredAt: row.occurred_at,
    tool: row.tool,
    surface: row.surface,
    principalKind,
    clientName: row.client_name,
    credentialRef: principalKind === 'token' || principalKind === 'oauth' ? row.principal_ref : null,
    outcomeCode: row.outcome_code,
    resultingIds: resultingIdsOf(row.resulting_ids),
    draftId: row.draft_id,
    durationMs: Number(row.duration_ms),
  };
}

function journeyEntryOf(row: AuditRecordTable): JourneyEntry {
  return {
    ...entryOf(row),
    accountRef: row.account_ref,
    draft:
      row.draft_id !== null && row.draft_version !== null && row.draft_hash !== null
        ? { id: row.draft_id, version: Number(row.draft_version), hash: row.draft_hash }
        : null,
    confirmationId: row.confirmation_id,
    ruleVersion: row.rule_version,
    metadataVersion: row.metadata_version,
    replayed: Number(row.replayed) === 1,
    capability: row.capability,
  };
}

function resultingIdsOf(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}
