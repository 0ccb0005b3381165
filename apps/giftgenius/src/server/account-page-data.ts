/**
 * @module What `/account` shows the signed-in person: the apps they connected
 * (their OAuth grants, in the site's words) and their most recent checkouts
 * (table `giftgenius_checkout`), nothing of anyone else's.
 */
import type { Kysely } from 'kysely';
import { listConnectedApps, type OAuthAuthorizationServer } from '@agentready/identity/oauth';
import type { SessionState } from '@agentready/identity';
import { formatMoney, CURRENCIES, type Currency } from '../domain/gift-catalog.ts';
import type { GiftGeniusDatabase } from '../store/schema.ts';
import type { AccountPageProps } from '../web/pages/account-page.tsx';
import { GIFTGENIUS_OAUTH_SCOPE_LABELS } from './giftgenius-oauth.ts';

/** How many checkouts the page lists, newest first. */
export const RECENT_CHECKOUTS_SHOWN = 20;

/**
 * The account page's data for a signed-in session (its account's own grants
 * and checkouts; a payment link only when the stored address is http(s)).
 *
 * @throws what the database throws (the app answers 500).
 */
export async function accountPageData(
  deps: { db: Kysely<GiftGeniusDatabase>; oauth: OAuthAuthorizationServer | undefined },
  session: SessionState & { account: NonNullable<SessionState['account']> },
  notice: string | null,
): Promise<AccountPageProps> {
  const apps = await listConnectedApps(deps.oauth, session.principal, GIFTGENIUS_OAUTH_SCOPE_LABELS);
  const rows = await deps.db
    .selectFrom('giftgenius_checkout')
    .select(['gift_name', 'quantity', 'currency', 'amount_total', 'session_url', 'created_at'])
    .where('account_id', '=', session.account.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(RECENT_CHECKOUTS_SHOWN)
    .execute();
  return {
    email: session.account.email,
    csrfToken: session.csrfToken,
    apps: apps.map((app) => ({ ref: app.ref, clientName: app.clientName, scopes: app.scopes, connectedAt: app.createdAt, lastUsedAt: app.lastUsedAt })),
    checkouts: rows.map((row) => ({
      giftName: row.gift_name,
      quantity: row.quantity,
      total: isCurrency(row.currency)
        ? formatMoney({ amountMinor: Number(row.amount_total), currency: row.currency })
        : `${(Number(row.amount_total) / 100).toFixed(2)} ${row.currency}`,
      createdAt: new Date(row.created_at),
      paymentUrl: httpUrlOrNull(row.session_url),
    })),
    notice,
  };
}

function isCurrency(code: string): code is Currency {
  return (CURRENCIES as readonly string[]).includes(code);
}

/** The address when it is an absolute http(s) URL (never a `javascript:` one), else null. */
function httpUrlOrNull(address: string): string | null {
  const url = URL.canParse(address) ? new URL(address) : null;
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? url.href : null;
}
