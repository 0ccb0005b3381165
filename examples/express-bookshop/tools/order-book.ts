/**
 * @module `order_book` (commit, confirmed by the person): an agent prepares
 * the order; the person reads it on the confirmation page and clicks Confirm;
 * only then does the handler run, once.
 */
import { z } from 'zod';
import { defineShopTool } from './define-shop-tool.ts';

export const orderBook = defineShopTool({
  name: 'order_book',
  title: 'Order a book',
  effect: 'commit',
  description: 'Orders one book (an id from find_books). The person confirms the order at guidance.confirmationUrl; nothing is ordered until they do.',
  input: z.object({ book_id: z.string().min(1).max(40) }),
  output: z.object({ orderId: z.string(), title: z.string(), priceUsd: z.number() }),
  confirm: ({ book_id }, { app }) => {
    const book = app.book(book_id);
    return book ? `Order “${book.title}” by ${book.author} for ${book.priceUsd} USD.` : `Order the book ${book_id}, which the shop does not have.`;
  },
  async handler({ book_id }, { app }) {
    const book = app.book(book_id);
    if (!book) return { ok: false, failure: { code: 'NOT_FOUND', field: 'book_id', message: 'The shop has no such book.' } };
    return { ok: true, data: { orderId: app.order(book.id), title: book.title, priceUsd: book.priceUsd } };
  },
});
