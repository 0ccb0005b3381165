/**
 * @module The gift finder's view: one screen per state of the flow
 * (gift-finder-flow.ts), under a status line that screen readers announce.
 */
import type { GiftFinderFlow, ViewState } from './gift-finder-flow.ts';
import { GiftCardList } from './gift-cards.tsx';
import { CheckoutFailed, CheckoutOpened, CheckoutReview, DraftConflict, RetryAfter, type Locality } from './checkout-views.tsx';

/** Props of {@link GiftFinderView}. */
export type GiftFinderViewProps = {
  state: ViewState;
  /** The flow whose buttons the view wires (buy, confirm, retry, reviewAgain, openCheckout). */
  flow: Pick<GiftFinderFlow, 'buy' | 'confirm' | 'retry' | 'reviewAgain' | 'backToGifts' | 'openCheckout'>;
  locality: Locality;
};

/** The whole view: the status line, then the screen of `state`. */
export function GiftFinderView({ state, flow, locality }: GiftFinderViewProps) {
  return (
    <main class="gift-finder" data-state={state.kind} aria-busy={state.kind === 'loading'}>
      <h1 class="title">GiftGenius</h1>
      <p class="status" role="status" aria-live="polite">
        {statusLine(state)}
      </p>
      <StateScreen state={state} flow={flow} locality={locality} />
    </main>
  );
}

function StateScreen({ state, flow, locality }: GiftFinderViewProps) {
  switch (state.kind) {
    case 'waiting':
    case 'loading':
    case 'cancelled':
      return null;
    case 'error':
      return (
        <section aria-labelledby="error-heading">
          <h2 id="error-heading">{errorHeading(state.code)}</h2>
          <p class="message">{state.message}</p>
          {state.retryAfterSeconds !== null && <RetryAfter seconds={state.retryAfterSeconds} />}
          {state.canRetry && (
            <button type="button" class="primary" onClick={() => void flow.retry()}>
              Retry
            </button>
          )}
          {state.canReviewAgain && (
            <button type="button" class="primary" onClick={() => void flow.reviewAgain()}>
              Review again
            </button>
          )}
          {state.canGoBack && (
            <button type="button" onClick={() => flow.backToGifts()}>
              Back to the gifts
            </button>
          )}
        </section>
      );
    case 'empty':
      return (
        <section aria-labelledby="empty-heading">
          <h2 id="empty-heading">No gifts matched</h2>
          {state.reason !== null && <p class="message">{state.reason}</p>}
          {state.suggestion !== null && <p class="suggestion">{state.suggestion.text}</p>}
        </section>
      );
    case 'cards':
      return <GiftCardList gifts={state.gifts} busyGiftId={state.busyGiftId} locale={locality.locale} onBuy={(gift) => void flow.buy(gift)} />;
    case 'review':
      return <CheckoutReview {...state} locality={locality} onConfirm={() => void flow.confirm()} />;
    case 'checkout_failed':
      return <CheckoutFailed {...state} locality={locality} onRetry={() => void flow.retry()} />;
    case 'conflict':
      return <DraftConflict {...state} locality={locality} onReviewAgain={() => void flow.reviewAgain()} onBack={() => flow.backToGifts()} />;
    case 'done':
      return <CheckoutOpened {...state} locality={locality} onOpen={() => void flow.openCheckout()} />;
    case 'outdated':
      return (
        <section aria-labelledby="outdated-heading">
          <h2 id="outdated-heading">This view is out of date</h2>
          <p class="message">The gift finder answered in a newer format than this view can show. Ask again once the app is updated.</p>
        </section>
      );
  }
}

/** The one line announced for each state. */
function statusLine(state: ViewState): string {
  switch (state.kind) {
    case 'waiting':
      return 'Waiting for the gift finder…';
    case 'loading':
      return state.label;
    case 'error':
      return 'The request did not succeed.';
    case 'empty':
      return 'No gifts matched.';
    case 'cards':
      return state.busyGiftId !== null ? 'Preparing your checkout…' : `${state.gifts.length} ${state.gifts.length === 1 ? 'gift' : 'gifts'} found.`;
    case 'review':
      return state.confirming ? 'Confirming…' : 'Review the checkout, then confirm.';
    case 'checkout_failed':
      return state.retrying ? 'Retrying…' : 'The checkout could not be opened.';
    case 'conflict':
      return state.reviewing ? 'Preparing a new review…' : 'The checkout changed; review it again.';
    case 'done':
      return 'Your checkout is ready.';
    case 'outdated':
      return 'This view is out of date.';
    case 'cancelled':
      return 'The request was cancelled.';
  }
}

/** A failure's heading, from its code (never from its message). */
function errorHeading(code: string | null): string {
  switch (code) {
    case 'RATE_LIMITED':
      return 'Too many requests';
    case 'TEMPORARY_FAILURE':
    case 'IN_PROGRESS':
      return 'Not available right now';
    case 'INVALID_INPUT':
      return 'The request needs a change';
    case 'NOT_FOUND':
      return 'Not found';
    case 'CONFLICT':
      return 'This cannot be done now';
    case 'UNAUTHENTICATED':
    case 'SESSION_EXPIRED':
      return 'Sign-in needed';
    default:
      return 'This could not be done';
  }
}
