/**
 * @module The gift cards: one card per suggested gift (picture, name, price,
 * tags, stock) with a Buy button that asks the host to prepare a checkout.
 */
import type { GiftCard } from './widget-contract.ts';
import { formatMoney } from './money-and-dates.ts';

/** Props of {@link GiftCardList}. */
export type GiftCardListProps = {
  gifts: GiftCard[];
  /** The gift whose Buy is in flight, or null. Every Buy is disabled while one is. */
  busyGiftId: string | null;
  locale: string | undefined;
  onBuy(gift: GiftCard): void;
};

/** The suggested gifts as a list of cards. */
export function GiftCardList({ gifts, busyGiftId, locale, onBuy }: GiftCardListProps) {
  return (
    <section aria-labelledby="gift-list-heading">
      <h2 id="gift-list-heading">Gift ideas</h2>
      <ul class="gift-cards">
        {gifts.map((gift) => (
          <li key={gift.giftId} class="gift-card" data-gift-id={gift.giftId}>
            {gift.imageUrl !== null && <img class="gift-image" src={gift.imageUrl} alt="" width={96} height={96} />}
            <div class="gift-body">
              <h3 class="gift-name">{gift.name}</h3>
              <p class="gift-description">{gift.description}</p>
              <p class="gift-price">{formatMoney(gift.price, locale)}</p>
              {gift.tags.length > 0 && (
                <ul class="gift-tags" aria-label="Tags">
                  {gift.tags.map((tag) => (
                    <li key={tag}>{tag}</li>
                  ))}
                </ul>
              )}
              {!gift.inStock && <p class="gift-out-of-stock">Out of stock</p>}
              <button
                type="button"
                class="primary"
                disabled={!gift.inStock || busyGiftId !== null}
                aria-busy={busyGiftId === gift.giftId}
                aria-label={`Buy ${gift.name}`}
                onClick={() => onBuy(gift)}
              >
                {busyGiftId === gift.giftId ? 'Preparing…' : 'Buy'}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
