/**
 * @module `/account`: the signed-in person's own page: the apps they
 * connected (OAuth grants), each with Revoke, and their recent checkouts
 * with a link to each one's payment page.
 */
import { SITE_TIME_ZONE } from '../site-time.ts';

/** A connected app as the page lists it. */
export type ConnectedAppRow = {
  /** Opaque grant reference (`oag-…`), for the Revoke form. */
  ref: string;
  /** The app's own name, made safe to show. */
  clientName: string;
  /** What it may do, in the site's words. */
  scopes: string[];
  connectedAt: Date;
  lastUsedAt: Date | null;
};

/** A checkout as the page lists it. */
export type CheckoutRow = {
  giftName: string;
  quantity: number;
  /** The total as a person reads it (`$49.99`). */
  total: string;
  createdAt: Date;
  /** The payment provider's page for it, or null when the stored address is not an http(s) URL. */
  paymentUrl: string | null;
};

/** What the account page shows. */
export type AccountPageProps = {
  /** The signed-in person's own e-mail address. */
  email: string;
  csrfToken: string;
  apps: ConnectedAppRow[];
  checkouts: CheckoutRow[];
  /** A sentence about what was just done (an app disconnected), or null. */
  notice: string | null;
};

/** The account page. */
export function AccountPage({ email, csrfToken, apps, checkouts, notice }: AccountPageProps) {
  return (
    <>
      <h1>Your account</h1>
      <p>
        Signed in as <strong data-testid="account-email">{email}</strong>.
      </p>
      {notice && (
        <p role="status" class="notice" data-testid="account-notice">
          {notice}
        </p>
      )}
      <h2 id="connected-apps">Connected apps</h2>
      {apps.length === 0 ? (
        <p data-testid="no-connected-apps">No app is connected. A chat host you add GiftGenius to asks you here first.</p>
      ) : (
        <table data-testid="connected-apps" aria-labelledby="connected-apps">
          <thead>
            <tr>
              <th scope="col">App</th>
              <th scope="col">It may</th>
              <th scope="col">Connected</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span class="visually-hidden">Disconnect</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {apps.map((app) => (
              <tr key={app.ref}>
                <td>{app.clientName}</td>
                <td>{app.scopes.join('; ')}</td>
                <td>
                  <DateText date={app.connectedAt} />
                </td>
                <td>{app.lastUsedAt ? <DateText date={app.lastUsedAt} /> : 'Not yet'}</td>
                <td>
                  <form method="post" action={`/account/apps/${encodeURIComponent(app.ref)}/revoke`} class="inline-form">
                    <input type="hidden" name="csrf_token" value={csrfToken} />
                    <button type="submit" class="secondary" aria-label={`Revoke ${app.clientName}`} data-testid="revoke-app">
                      Revoke
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2 id="recent-checkouts">Recent checkouts</h2>
      {checkouts.length === 0 ? (
        <p data-testid="no-checkouts">No checkout yet. A checkout appears here once you click Confirm on one in the chat.</p>
      ) : (
        <table data-testid="checkouts" aria-labelledby="recent-checkouts">
          <thead>
            <tr>
              <th scope="col">Gift</th>
              <th scope="col">Quantity</th>
              <th scope="col">Total</th>
              <th scope="col">Date</th>
              <th scope="col">Payment</th>
            </tr>
          </thead>
          <tbody>
            {checkouts.map((checkout, index) => (
              <tr key={index}>
                <td>{checkout.giftName}</td>
                <td>{checkout.quantity}</td>
                <td>{checkout.total}</td>
                <td>
                  <DateText date={checkout.createdAt} />
                </td>
                <td>
                  {checkout.paymentUrl ? (
                    <a href={checkout.paymentUrl}>
                      Payment page<span class="visually-hidden"> for {checkout.giftName}</span>
                    </a>
                  ) : (
                    'Unavailable'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: SITE_TIME_ZONE });

/** A day as a person reads it (`1 Dec 2026`, in the site's time zone, which every page names), with the exact time for machines. */
function DateText({ date }: { date: Date }) {
  return <time dateTime={date.toISOString()}>{DATE_FORMAT.format(date)}</time>;
}
