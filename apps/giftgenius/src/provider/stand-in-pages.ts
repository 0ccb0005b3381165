/**
 * @module What the payment provider stand-in shows people rather than
 * programs: the hosted payment page of a checkout session (`/pay/:id`: what
 * is bought, the amount, and a Pay button; there is no card form, since
 * nothing is charged) and each product's picture (`/images/:id.svg`, a
 * drawn gift box with the product's name). Text from the catalog is escaped
 * by hono/html.
 */
import { createHash } from 'node:crypto';
import { html } from 'hono/html';
import type { GiftProduct } from './gift-products.ts';
import type { StandInSession } from './stand-in-state.ts';

/** The hosted payment page's Content-Security-Policy: no scripts; only its own form target and inline styles. */
export const PAY_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** `12345` minor units of `usd` → `$123.45`; TWD as `NT$1,590.00`. */
function formatAmount(amountMinor: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amountMinor / 100);
}

const PAGE_STYLE = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#1f2430}
table{width:100%;border-collapse:collapse}td,th{padding:.4rem 0;text-align:left}td.amount,th.amount{text-align:right}
tfoot td{border-top:1px solid #ccc;font-weight:600}button{font-size:1.1rem;padding:.6rem 1.6rem;margin-top:1rem;cursor:pointer}
.note{color:#555;font-size:.9rem}`;

/**
 * The hosted payment page of `session`: each line (product name, units,
 * amount), the total, and by status either a Pay button (a form posting to
 * `/pay/<id>`), "Paid", or "expired".
 *
 * @param products the stand-in's catalog now, to name each line's product.
 * @returns the whole HTML document.
 */
export async function payPageHtml(session: StandInSession, products: ReadonlyMap<string, GiftProduct>): Promise<string> {
  const lines = session.lineItems.map((item) => {
    const name = products.get(item.product)?.name ?? item.product;
    return html`<tr><td>${name} × ${item.quantity}</td><td class="amount">${formatAmount(item.unitAmount * item.quantity, session.currency)}</td></tr>`;
  });
  const total = formatAmount(session.amountTotal, session.currency);
  const action =
    session.status === 'open'
      ? html`<form method="post" action="/pay/${session.id}"><button type="submit">Pay ${total}</button></form>
<p class="note">This is the GiftGenius payment provider stand-in: no card is charged.</p>`
      : session.status === 'complete'
        ? html`<p role="status"><strong>Paid.</strong> Thank you: your gift is on its way.</p>`
        : html`<p role="status"><strong>This checkout has expired.</strong> Go back to the chat to start a new one.</p>`;
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout: ${total}</title><style>${PAGE_STYLE}</style></head>
<body><main><h1>Checkout</h1>
<table><thead><tr><th>Gift</th><th class="amount">Amount</th></tr></thead><tbody>${lines}</tbody>
<tfoot><tr><td>Total</td><td class="amount">${total}</td></tr></tfoot></table>
${action}</main></body></html>`;
  return String(await page);
}

/** The page answered for a session id the stand-in does not know. */
export async function missingPayPageHtml(): Promise<string> {
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>No such checkout</title><style>${PAGE_STYLE}</style></head>
<body><main><h1>No such checkout</h1><p>This payment link is not valid. Go back to the chat to start a new checkout.</p></main></body></html>`;
  return String(await page);
}

/** Splits `name` into at most three lines of about 22 characters, breaking between words. */
function pictureLines(name: string): string[] {
  const lines: string[] = [];
  for (const word of name.split(/\s+/)) {
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= 22) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.length > 3 ? [...lines.slice(0, 2), `${lines[2]}…`] : lines;
}

/**
 * A 400×400 SVG picture of `product`: a gift box on a background whose hue
 * comes from the product id's SHA-256 (the same on every run), with the
 * product's name below it.
 *
 * @returns the SVG document.
 */
export async function productPictureSvg(product: GiftProduct): Promise<string> {
  const hue = Math.round((createHash('sha256').update(product.id).digest()[0] ?? 0) * (360 / 256));
  const text = pictureLines(product.name).map((line, index) => html`<text x="200" y="${300 + index * 28}">${line}</text>`);
  const picture = html`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400" role="img" aria-label="${product.name}">
<rect width="400" height="400" fill="hsl(${hue} 60% 92%)"/>
<rect x="130" y="110" width="140" height="120" rx="6" fill="hsl(${hue} 55% 55%)"/>
<rect x="118" y="86" width="164" height="34" rx="6" fill="hsl(${hue} 55% 45%)"/>
<rect x="190" y="86" width="20" height="144" fill="hsl(${(hue + 180) % 360} 65% 60%)"/>
<path d="M200 86 C170 50 140 70 170 86 M200 86 C230 50 260 70 230 86" fill="none" stroke="hsl(${(hue + 180) % 360} 65% 50%)" stroke-width="8"/>
<g font-family="system-ui, sans-serif" font-size="22" text-anchor="middle" fill="hsl(${hue} 40% 20%)">${text}</g>
</svg>`;
  return String(await picture);
}
