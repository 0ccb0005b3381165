/**
 * @module The gift finder's flow: which state the view shows, and the calls
 * its buttons make through the host (Buy → prepare_checkout, Confirm →
 * create_checkout_session, Retry, Review again, Open checkout). The state is
 * chosen from the envelope only (tool-result-reading.ts). The confirmation
 * token and the idempotency keys stay in this object's memory, never in the
 * state the view renders. No DOM here: the host is reached through
 * {@link FlowHost}.
 */
import type { ErrorCode } from 'agentready';
import { readCheckoutConfirmation, readWidgetResult, type ToolCallResult } from './tool-result-reading.ts';
import type {
  CheckoutConfirmationMeta,
  CheckoutDraft,
  CheckoutSessionView,
  CreateCheckoutSessionInput,
  CurrencyCode,
  DraftChange,
  GiftCard,
  GiftSuggestion,
  GiftSuggestionsData,
  PrepareCheckoutInput,
} from './widget-contract.ts';

/** A tool call the widget makes or shows: the tool's name and its arguments. */
export type ToolCall = { name: string; arguments: Record<string, unknown> };

/** What the flow needs from the host (the ext-apps App in the page). */
export type FlowHost = {
  /** tools/call through the host; rejects when the host refuses or the call breaks. */
  callServerTool(call: ToolCall): Promise<ToolCallResult>;
  /** ui/open-link; rejects when the host refuses. */
  openLink(url: string): Promise<void>;
  /** A new idempotency key (crypto.randomUUID() in the page). */
  newIdempotencyKey(): string;
};

/** A failure as the view shows it. */
export type FailureView = { code: ErrorCode | null; message: string; retryAfterSeconds: number | null };

/** What the view shows now. */
export type ViewState =
  | { kind: 'waiting' }
  | { kind: 'loading'; label: string }
  | ({ kind: 'error'; canRetry: boolean; canGoBack: boolean; canReviewAgain: boolean } & FailureView)
  | { kind: 'empty'; reason: string | null; suggestion: GiftSuggestion | null }
  | { kind: 'cards'; gifts: GiftCard[]; criteria: GiftSuggestionsData['criteria']; busyGiftId: string | null }
  | { kind: 'review'; draft: CheckoutDraft; confirmable: boolean; confirming: boolean }
  | ({ kind: 'checkout_failed'; draft: CheckoutDraft; retrying: boolean } & FailureView)
  /** A CONFLICT that lists what changed. Review again is offered when the commit found the reviewed draft stale. */
  | { kind: 'conflict'; message: string; changes: DraftChange[]; currency: CurrencyCode; canReviewAgain: boolean; canGoBack: boolean; reviewing: boolean }
  | { kind: 'done'; checkout: CheckoutSessionView; replayed: boolean; opening: boolean; linkRefused: boolean }
  | { kind: 'outdated'; contractVersion: unknown }
  | { kind: 'cancelled' };

const UNREADABLE_MESSAGE = 'The answer could not be read by this view.';
const CALL_BROKE_MESSAGE = 'The host could not finish the call.';

/**
 * The gift finder's state machine. One call runs at a time: while one is in
 * flight every button is disabled and a second click sends nothing.
 */
export class GiftFinderFlow {
  #state: ViewState = { kind: 'waiting' };
  #busy = false;
  /** The call whose answer is on screen (Retry repeats it with the same arguments). */
  #shownCall: ToolCall | null = null;
  #draft: CheckoutDraft | null = null;
  /** The cards last shown, so a failed Buy can go back to them. */
  #cards: Extract<ViewState, { kind: 'cards' }> | null = null;
  #confirmation: CheckoutConfirmationMeta | null = null;
  /** Idempotency keys, one per (draftId, draftVersion), made on first Confirm. */
  readonly #keys = new Map<string, string>();

  /**
   * @param host how calls reach the host.
   * @param onChange called with each new state (the view re-renders from it).
   */
  constructor(
    private readonly host: FlowHost,
    private readonly onChange: (state: ViewState) => void,
  ) {}

  /** The state on screen. */
  get state(): ViewState {
    return this.#state;
  }

  /** ui/notifications/tool-input: the model called `toolName` (null when the host did not say which) with `args`. */
  toolInput(toolName: string | null, args: Record<string, unknown>): void {
    this.#shownCall = toolName === null ? null : { name: toolName, arguments: args };
    this.#set({ kind: 'loading', label: loadingLabel(toolName) });
  }

  /** ui/notifications/tool-result: the model's call answered. */
  toolResult(result: ToolCallResult): void {
    this.#show(result, this.#shownCall);
  }

  /** ui/notifications/tool-cancelled. */
  toolCancelled(): void {
    this.#set({ kind: 'cancelled' });
  }

  /** Buy on a gift card: prepares a checkout for one of `giftId` in the card's currency. */
  async buy(gift: GiftCard): Promise<void> {
    const state = this.#state;
    if (this.#busy || state.kind !== 'cards' || !gift.inStock) return;
    const input: PrepareCheckoutInput = { gift_id: gift.giftId, quantity: 1, currency: gift.price.currency };
    await this.#run({ name: 'prepare_checkout', arguments: input }, { ...state, busyGiftId: gift.giftId });
  }

  /**
   * Confirm on the review: create_checkout_session with the draft, the token
   * from the prepare_checkout result's `_meta` and this draft version's key.
   */
  async confirm(): Promise<void> {
    const state = this.#state;
    const confirmation = this.#confirmation;
    if (this.#busy || state.kind !== 'review' || confirmation === null) return;
    const input: CreateCheckoutSessionInput = {
      draft_id: confirmation.draftId,
      draft_version: confirmation.draftVersion,
      confirmation_token: confirmation.confirmationToken,
      idempotency_key: this.#keyFor(confirmation),
    };
    await this.#run({ name: 'create_checkout_session', arguments: input }, { ...state, confirming: true });
  }

  /** Retry after a retryable failure: the same tool with the same arguments (a checkout keeps its idempotency key). */
  async retry(): Promise<void> {
    const state = this.#state;
    const call = this.#shownCall;
    if (this.#busy || call === null) return;
    if (state.kind === 'checkout_failed') await this.#run(call, { ...state, retrying: true });
    else if (state.kind === 'error' && state.canRetry) await this.#run(call, { kind: 'loading', label: loadingLabel(call.name) });
  }

  /**
   * Review again after a CONFLICT, or after a Confirm refused for good (its
   * token expired, the draft moved on): prepare_checkout for the same gift,
   * quantity and currency, so the person confirms what holds now.
   */
  async reviewAgain(): Promise<void> {
    const state = this.#state;
    const draft = this.#draft;
    if (this.#busy || (state.kind !== 'conflict' && state.kind !== 'error') || !state.canReviewAgain || draft === null) return;
    const input: PrepareCheckoutInput = { gift_id: draft.gift.giftId, quantity: draft.quantity, currency: draft.total.currency };
    const pending: ViewState = state.kind === 'conflict' ? { ...state, reviewing: true } : { kind: 'loading', label: loadingLabel('prepare_checkout') };
    await this.#run({ name: 'prepare_checkout', arguments: input }, pending);
  }

  /** Back to the gifts after a Buy that could not be prepared (the gift sold out or was discontinued). */
  backToGifts(): void {
    const state = this.#state;
    if (this.#busy || (state.kind !== 'conflict' && state.kind !== 'error') || !state.canGoBack || this.#cards === null) return;
    this.#set({ ...this.#cards, busyGiftId: null });
  }

  /** Open checkout: asks the host to open the provider's payment page. */
  async openCheckout(): Promise<void> {
    const state = this.#state;
    if (this.#busy || state.kind !== 'done') return;
    this.#busy = true;
    this.#set({ ...state, opening: true, linkRefused: false });
    let refused = false;
    try {
      await this.host.openLink(state.checkout.url);
    } catch {
      refused = true;
    }
    this.#busy = false;
    this.#set({ ...state, opening: false, linkRefused: refused });
  }

  /** Runs `call` with `pending` on screen, then shows its answer. */
  async #run(call: ToolCall, pending: ViewState): Promise<void> {
    this.#busy = true;
    this.#set(pending);
    let result: ToolCallResult | null = null;
    try {
      result = await this.host.callServerTool(call);
    } catch {
      result = null;
    }
    this.#busy = false;
    if (result === null) this.#callBroke(call);
    else this.#show(result, call);
  }

  /** The host's call failed without an answer: a checkout may be retried with its key; others cannot say more. */
  #callBroke(call: ToolCall): void {
    this.#shownCall = call;
    const failure: FailureView = { code: null, message: CALL_BROKE_MESSAGE, retryAfterSeconds: null };
    if (call.name === 'create_checkout_session' && this.#draft !== null) {
      this.#set({ kind: 'checkout_failed', draft: this.#draft, retrying: false, ...failure });
    } else {
      this.#set({ kind: 'error', canRetry: false, ...this.#waysBack(call, false), ...failure });
    }
  }

  /** Where a failed call may lead back to: the cards after a Buy, a new review after a Confirm refused for good. */
  #waysBack(call: ToolCall | null, retryable: boolean): { canGoBack: boolean; canReviewAgain: boolean } {
    return {
      canGoBack: call?.name === 'prepare_checkout' && this.#cards !== null,
      canReviewAgain: call?.name === 'create_checkout_session' && this.#draft !== null && !retryable,
    };
  }

  /** Shows the answer to `call` (null when the host did not say which tool the model called). */
  #show(result: ToolCallResult, call: ToolCall | null): void {
    this.#shownCall = call;
    const read = readWidgetResult(result);
    if (read.kind === 'unreadable') {
      this.#set({ kind: 'error', canRetry: false, canGoBack: false, canReviewAgain: false, code: null, message: UNREADABLE_MESSAGE, retryAfterSeconds: null });
    } else if (read.kind === 'outdated') {
      this.#set({ kind: 'outdated', contractVersion: read.contractVersion });
    } else if (read.kind === 'failure') {
      this.#showFailure(read.failure, read.changes, call);
    } else {
      const data = read.data;
      if (data.view === 'gift_suggestions') {
        this.#cards = data.gifts.length === 0 ? null : { kind: 'cards', gifts: data.gifts, criteria: data.criteria, busyGiftId: null };
        this.#set(this.#cards ?? { kind: 'empty', reason: data.noResultsReason, suggestion: data.suggestion });
      } else if (data.view === 'checkout_review') {
        this.#draft = data.draft;
        this.#confirmation = readCheckoutConfirmation(result, data.draft);
        this.#set({ kind: 'review', draft: data.draft, confirmable: this.#confirmation !== null, confirming: false });
      } else {
        this.#confirmation = null;
        this.#set({
          kind: 'done',
          checkout: data.checkout,
          replayed: read.replayed || data.checkout.openedBefore === true,
          opening: false,
          linkRefused: false,
        });
      }
    }
  }

  #showFailure(
    failure: { code: ErrorCode; message: string; retryable: boolean; retryAfterSeconds?: number },
    changes: DraftChange[],
    call: ToolCall | null,
  ): void {
    const view: FailureView = { code: failure.code, message: failure.message, retryAfterSeconds: failure.retryAfterSeconds ?? null };
    const draft = this.#draft;
    if (failure.code === 'CONFLICT' && changes.length > 0) {
      const canReviewAgain = call?.name === 'create_checkout_session' && draft !== null;
      const currency = draft?.unitPrice.currency ?? callCurrency(call);
      this.#set({
        kind: 'conflict',
        message: failure.message,
        changes,
        currency,
        canReviewAgain,
        canGoBack: this.#waysBack(call, false).canGoBack,
        reviewing: false,
      });
    } else if (call?.name === 'create_checkout_session' && failure.retryable && draft !== null) {
      this.#set({ kind: 'checkout_failed', draft, retrying: false, ...view });
    } else {
      this.#set({ kind: 'error', canRetry: failure.retryable && call !== null, ...this.#waysBack(call, failure.retryable), ...view });
    }
  }

  #keyFor(confirmation: CheckoutConfirmationMeta): string {
    const slot = `${confirmation.draftId}\u0000${confirmation.draftVersion}`;
    let key = this.#keys.get(slot);
    if (key === undefined) {
      key = this.host.newIdempotencyKey();
      this.#keys.set(slot, key);
    }
    return key;
  }

  #set(state: ViewState): void {
    this.#state = state;
    this.onChange(state);
  }
}

/** The currency a call asked for (prepare_checkout and suggest_gifts default to USD). */
function callCurrency(call: ToolCall | null): CurrencyCode {
  const currency = call?.arguments['currency'];
  return currency === 'EUR' || currency === 'TWD' ? currency : 'USD';
}

/** The loading line for a call to `toolName`. */
function loadingLabel(toolName: string | null): string {
  if (toolName === 'prepare_checkout') return 'Preparing your checkout…';
  if (toolName === 'create_checkout_session') return 'Opening the checkout…';
  return 'Finding gifts…';
}
