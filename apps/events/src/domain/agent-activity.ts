/**
 * @module What the agents acting for a signed-in person did, read from the
 * audit evidence (agentready/runtime, readActivityPage), for the `/activity` page:
 * newest first, one client at a time if asked, a page at a time. Only the
 * person's own account's records are ever read.
 */
import { readActivityPage, type ActivityClientShown, type ActivityEntry, type ActivityPageRequest } from 'agentready/runtime';
import type { Principal } from 'agentready';
import { refused, succeeded, type DomainResult } from './domain-result.ts';
import type { EventsContext } from './events-context.ts';
import { toSiteIso } from './site-time.ts';

/** Entries per page of activity. */
export const ACTIVITY_PAGE_SIZE = 20;

/** Which calls to show, as the page's query asks: one named client, the person's own browser, or all; and from where on. */
export type AgentActivityRequest = ActivityPageRequest;

/**
 * One call as the page shows it; `occurredAt` in the site's time zone (ISO 8601,
 * +08:00); `clientName` as pages show it; `traceId` shown as a reference the
 * person can quote to the site's operator, who prints the journey with
 * `agentready-events trace`.
 */
export type AgentActivityEntry = Omit<ActivityEntry, 'durationMs'>;

/** A page of activity, the clients to filter by, and the cursor of the next (older) page, or null. */
export type AgentActivityPage = { entries: AgentActivityEntry[]; clients: ActivityClientShown[]; next: string | null };

/**
 * The activity of `principal`'s account.
 *
 * @returns null when the principal has no account (nobody signed in: there is
 *   no activity to show); INVALID_INPUT (field `before`) for a cursor that is
 *   not one this site wrote, INVALID_INPUT (field `client`) when both a client
 *   and the browser are asked for; otherwise the page.
 */
export async function listAgentActivity(
  ctx: EventsContext,
  principal: Principal | null,
  request: AgentActivityRequest,
): Promise<DomainResult<AgentActivityPage> | null> {
  const accountRef = principal?.account?.ref;
  if (accountRef === undefined || accountRef === '') return null;
  const read = await readActivityPage(ctx.db, accountRef, request, ACTIVITY_PAGE_SIZE);
  if (!read.ok) return refused('INVALID_INPUT', read.message, { field: read.field });
  return succeeded({
    entries: read.entries.map(({ durationMs: _duration, ...entry }) => ({ ...entry, occurredAt: toSiteIso(new Date(entry.occurredAt)) })),
    clients: read.clients,
    next: read.next,
  });
}
