/**
 * @module `wish_book` (write, with an idempotency key): adds a book to the
 * caller's wish list. A retry with the same key answers the first call's
 * result and adds nothing.
 */
import { idempotencyKeySchema } from 'agentready/runtime';
import { z } from 'zod';
import { defineShopTool } from './define-shop-tool.ts';

export const wishBook = defineShopTool({
  name: 'wish_book',
  title: 'Add to wish list',
  effect: 'write',
  description: "Adds a book (an id from find_books) to the person's wish list. Make a new idempotency_key for each wish; send the same key only to retry.",
  input: z.object({ book_id: z.string().min(1).max(40), idempotency_key: idempotencyKeySchema }),
  output: z.object({ book: z.string(), wishes: z.number().int() }),
  async handler({ book_id }, { app, principal }) {
    const book = app.book(book_id);
    if (!book)
      return { ok: false, failure: { code: 'NOT_FOUND', field: 'book_id', message: 'No book has that id.', nextAction: 'Use an id from find_books.' } };
    return { ok: true, data: { book: book.title, wishes: app.wish(principal!.id, book.id) } };
  },
});
