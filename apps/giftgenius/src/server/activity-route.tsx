/**
 * @module `GET /activity` of the GiftGenius site: the signed-in person's
 * activity page, read from the audit evidence of their own account
 * (agentready/runtime `readActivityPage`): the chat apps' calls and the
 * checkouts the person confirmed, each with its tool's title and its trace
 * id. A query the page did not write (a hand-edited `before`) is said on
 * the page (400), and nothing is read.
 */
import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import { activityPageRequestOf, readActivityPage } from 'agentready/runtime';
import type { GiftGeniusDatabase } from '../store/schema.ts';
import { giftgeniusCatalog } from '../tools/catalog.ts';
import { ActivityPage } from '../web/pages/activity-page.tsx';
import { renderPage, type SignedInPerson } from '../web/site-layout.tsx';

/**
 * The activity page of the account `accountRef` (the signed-in person's),
 * for the query of `c`'s request.
 *
 * @returns the page, 200; 400 with the problem said on the page for a query it did not write.
 * @throws what the database throws (the app answers 500).
 */
export async function activityPageResponse(c: Context, db: Kysely<GiftGeniusDatabase>, accountRef: string, person: SignedInPerson): Promise<Response> {
  const request = activityPageRequestOf(new URL(c.req.url).searchParams);
  const read = await readActivityPage(db, accountRef, request);
  const shown = read.ok
    ? {
        entries: read.entries.map((entry) => ({ ...entry, toolTitle: giftgeniusCatalog.get(entry.tool)?.title ?? entry.tool })),
        clients: read.clients,
        next: read.next,
        error: null,
      }
    : { entries: [], clients: [], next: null, error: read.message };
  const page = <ActivityPage filter={{ client: request.client ?? null, browser: request.browser === true }} older={request.before !== undefined} {...shown} />;
  return c.html(renderPage({ title: 'Activity', person, children: page }), read.ok ? 200 : 400);
}
