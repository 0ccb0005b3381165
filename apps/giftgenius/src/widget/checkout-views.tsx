/**
 * @module The checkout's screens: the review with Confirm, a checkout the
 * payment provider could not open (Retry with the same idempotency key), a
 * draft that changed (what changed, was → now, Review again) and the opened
 * checkout session (Open checkout). None of them ever shows the
 * confirmation token: it is not in the state they are given.
 */
import { secondsInWords } from 'agentready';
import type { CheckoutDraft, CheckoutSessionView, CurrencyCode, DraftChange } from './widget-contract.ts';
import { formatDeliveryWindow, formatMoment, formatMoney } from './money-and-dates.ts';

/** The host's locale and time zone, for prices and dates. */
export type Locality = { locale: string | undefined; timeZone: string | undefined };

/** The draft's facts as a description list: gift, quantity, unit price, total, delivery window. */
function DraftFacts({ draft, locality }: { draft: CheckoutDraft; locality: Locality }) {
  return (
    <dl class="facts">
      <dt>Gift</dt>
      <dd class="draft-gift">{draft.gift.name}</dd>
      <dt>Quantity</dt>
      <dd class="draft-quantity">{draft.quantity}</dd>
      <dt>Price each</dt>
      <dd>{formatMoney(draft.unitPrice, locality.locale)}</dd>
      <dt>Total</dt>
      <dd class="draft-total">{formatMoney(draft.total, locality.locale)}</dd>
      <dt>Delivery</dt>
      <dd class="draft-delivery">{formatDeliveryWindow(draft.delivery, locality.locale)}</dd>
    </dl>
  );
}

/** Props of {@link ActionButton}. */
type ActionButtonProps = {
  /** Whether the action's call is running: the button is then disabled, `aria-busy`, and says `busyLabel`. */
  busy: boolean;
  /** Disabled for another reason as well (nothing to confirm). Default: false. */
  disabled?: boolean;
  label: string;
  /** What the button says while busy. Default: `label`. */
  busyLabel?: string;
  onClick(): void;
};

/** A screen's primary action: one press at a time, its call's progress told to assistive technology. */
function ActionButton({ busy, disabled = false, label, busyLabel = label, onClick }: ActionButtonProps) {
  return (
    <button type="button" class="primary" disabled={disabled || busy} aria-busy={busy} onClick={onClick}>
      {busy ? busyLabel : label}
    </button>
  );
}

/** Props of {@link CheckoutReview}. */
export type CheckoutReviewProps = {
  draft: CheckoutDraft;
  /** False when the result carried no confirmation for this draft: Confirm is then unavailable. */
  confirmable: boolean;
  confirming: boolean;
  locality: Locality;
  onConfirm(): void;
};

/** The draft for the person to review, and Confirm. */
export function CheckoutReview({ draft, confirmable, confirming, locality, onConfirm }: CheckoutReviewProps) {
  return (
    <section aria-labelledby="review-heading">
      <h2 id="review-heading">Review your checkout</h2>
      {draft.gift.imageUrl !== null && <img class="gift-image" src={draft.gift.imageUrl} alt="" width={96} height={96} />}
      <DraftFacts draft={draft} locality={locality} />
      <p class="note">
        Confirm before {formatMoment(draft.expiresAt, locality.locale, locality.timeZone)}. Nothing is charged until you pay on the checkout page.
      </p>
      {!confirmable && <p class="note">This checkout cannot be confirmed here. Ask for it again to get a fresh review.</p>}
      <ActionButton busy={confirming} disabled={!confirmable} label="Confirm" busyLabel="Confirming…" onClick={onConfirm} />
    </section>
  );
}

/** Props of {@link CheckoutFailed}. */
export type CheckoutFailedProps = {
  draft: CheckoutDraft;
  message: string;
  retryAfterSeconds: number | null;
  retrying: boolean;
  locality: Locality;
  onRetry(): void;
};

/** The provider could not open the checkout (a retryable failure): the message, and Retry with the same key. */
export function CheckoutFailed({ draft, message, retryAfterSeconds, retrying, locality, onRetry }: CheckoutFailedProps) {
  return (
    <section aria-labelledby="checkout-failed-heading">
      <h2 id="checkout-failed-heading">The checkout could not be opened</h2>
      <p class="message">{message}</p>
      {retryAfterSeconds !== null && <RetryAfter seconds={retryAfterSeconds} />}
      <DraftFacts draft={draft} locality={locality} />
      <p class="note">Retrying is safe: it never opens a second checkout.</p>
      <ActionButton busy={retrying} label="Retry" busyLabel="Retrying…" onClick={onRetry} />
    </section>
  );
}

/** Props of {@link DraftConflict}. */
export type DraftConflictProps = {
  message: string;
  changes: DraftChange[];
  /** The draft's currency, for a price change (minor units). */
  currency: CurrencyCode;
  /** Whether Review again is offered (the commit found the reviewed draft stale). */
  canReviewAgain: boolean;
  /** Whether Back to the gifts is offered (a Buy found the gift gone; the cards are still known). */
  canGoBack: boolean;
  reviewing: boolean;
  locality: Locality;
  onReviewAgain(): void;
  onBack(): void;
};

/** Something changed under the draft: what changed (was → now), and Review again or Back to the gifts when that may help. */
export function DraftConflict({ message, changes, currency, canReviewAgain, canGoBack, reviewing, locality, onReviewAgain, onBack }: DraftConflictProps) {
  return (
    <section aria-labelledby="conflict-heading">
      <h2 id="conflict-heading">Something changed</h2>
      <p class="message">{message}</p>
      <ul class="changes">
        {changes.map((change) => (
          <li key={change.field} data-field={change.field}>
            <span class="change-field">{CHANGE_LABELS[change.field]}</span>: was{' '}
            <span class="change-was">{describeValue(change.field, change.was, currency, locality)}</span>, now{' '}
            <span class="change-now">{describeValue(change.field, change.now, currency, locality)}</span>
          </li>
        ))}
      </ul>
      {canReviewAgain && <ActionButton busy={reviewing} label="Review again" busyLabel="Preparing…" onClick={onReviewAgain} />}
      {canGoBack && (
        <button type="button" onClick={onBack}>
          Back to the gifts
        </button>
      )}
    </section>
  );
}

/** Props of {@link CheckoutOpened}. */
export type CheckoutOpenedProps = {
  checkout: CheckoutSessionView;
  replayed: boolean;
  opening: boolean;
  linkRefused: boolean;
  locality: Locality;
  onOpen(): void;
};

/** The checkout session is open at the provider: its total, and a button that asks the host to open its page. */
export function CheckoutOpened({ checkout, replayed, opening, linkRefused, locality, onOpen }: CheckoutOpenedProps) {
  return (
    <section aria-labelledby="done-heading">
      <h2 id="done-heading">Your checkout is ready</h2>
      <dl class="facts">
        <dt>Total</dt>
        <dd class="checkout-total">{formatMoney(checkout.total, locality.locale)}</dd>
        <dt>Pay by</dt>
        <dd>{formatMoment(checkout.expiresAt, locality.locale, locality.timeZone)}</dd>
      </dl>
      {replayed && <p class="note">This is the checkout you already opened; no second one was made.</p>}
      {linkRefused && <p class="note">The host did not open the checkout page.</p>}
      <ActionButton busy={opening} label="Open checkout" onClick={onOpen} />
    </section>
  );
}

/** "You can try again in 30 seconds." from a failure's `retryAfterSeconds`. */
export function RetryAfter({ seconds }: { seconds: number }) {
  return <p class="retry-after">You can try again in {secondsInWords(seconds)}.</p>;
}

const CHANGE_LABELS: Record<DraftChange['field'], string> = { price: 'Price', availability: 'Availability', stock: 'Stock' };

/** A change's `was` or `now` as text: a price (minor units of `currency`), a word, a count. */
function describeValue(field: DraftChange['field'], value: DraftChange['was'], currency: CurrencyCode, locality: Locality): string {
  if (field === 'price' && typeof value === 'number') return formatMoney({ amountMinor: value, currency }, locality.locale);
  if (typeof value === 'boolean') return value ? 'available' : 'unavailable';
  if (value === null) return 'none';
  // Availability words are snake_case on the wire (in_stock, out_of_stock): shown as words.
  return String(value).replaceAll('_', ' ');
}
